import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        return self.fc(x)


class Agent:
    def __init__(self):
        self.local = Net()
        self.target = Net()
        self.optimizer = torch.optim.Adam(self.local.parameters(), lr=1e-3)

    def act(self, state):
        state = torch.from_numpy(state).float()
        out = self.local(state)
        return int(out.argmax())

    def learn(self, states, next_states, rewards):
        q_next = self.target(next_states).max(1)[0]
        target = rewards + 0.99 * q_next
        loss = ((self.local(states).max(1)[0] - target) ** 2).mean()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()

    def sync(self):
        self.target.load_state_dict(self.local.state_dict())
