import torch
from torch import nn, optim


class DeepQNetwork(nn.Module):
    """Each instance builds and keeps its own optimizer."""

    def __init__(self, lr):
        super().__init__()
        self.fc = nn.Linear(4, 2)
        self.optimizer = optim.RMSprop(self.parameters(), lr=lr)
        self.loss = nn.MSELoss()

    def forward(self, state):
        return self.fc(state)


class SelfTrained(nn.Module):
    """Steps its own optimizer in its own method: every instance may train."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)
        self.optimizer = optim.Adam(self.parameters())

    def forward(self, state):
        return self.fc(state)

    def learn(self, loss):
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
