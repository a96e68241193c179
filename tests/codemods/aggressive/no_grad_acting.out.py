import random

import torch
import torch.nn.functional as F
from torch import nn


class Env:
    """A stand-in environment: the state drifts with the action, done after 20 steps."""

    def reset(self):
        self.t, self.s = 0, torch.zeros(4).numpy()
        return self.s

    def step(self, a):
        self.t += 1
        self.s = self.s * 0.9 + (a - 0.5)
        return self.s, float(a), self.t >= 20, {}


class QNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        return self.fc(x)

    def sample_action(self, obs, epsilon):
        with torch.no_grad():
            out = self.forward(obs)
        if random.random() < epsilon:
            return random.randint(0, 1)
        return out.argmax().item()


def main():
    torch.manual_seed(0)
    random.seed(0)
    env = Env()
    q = QNet()
    optimizer = torch.optim.SGD(q.parameters(), lr=0.01)
    actions = []
    for episode in range(5):
        s, done, states = env.reset(), False, []
        while not done:
            a = q.sample_action(torch.from_numpy(s).float(), 0.2)
            states.append(torch.from_numpy(s).float())
            s, r, done, _ = env.step(a)
            actions.append(a)
        loss = F.mse_loss(q(torch.stack(states)), torch.ones(len(states), 2))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(sum(actions), round(q.fc.weight.sum().item(), 5))


main()
