# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# How often a helper runs per call of the method that calls it is read from the method's
# conditions as a loop's are: a name bound to a condition (`sync_now = step % 1000 ==
# 0`) is that condition, and `a or b` is rare only when both parts are. A soft update
# every thousand learning steps is the aggressive level's; one under `warm or ...`, where
# `warm` holds on most calls, runs on most steps.
import copy

import torch
import torch.nn.functional as F
from torch import nn

device = torch.device("cuda")


class Agent:
    def __init__(self):
        self.net = nn.Linear(8, 2).to(device)
        self.target = copy.deepcopy(self.net)
        self.ema = copy.deepcopy(self.net)
        self.optimizer = torch.optim.Adam(self.net.parameters())
        self.warm = True

    def soft_update(self, tau=0.01):
        for t, p in zip(self.target.parameters(), self.net.parameters()):  # expected-hint@aggressive HARP405
            t.data.copy_(tau * p.data + (1 - tau) * t.data)

    def ema_update(self, decay=0.99):
        for e, p in zip(self.ema.parameters(), self.net.parameters()):  # expected-hint HARP405
            e.data.copy_(decay * e.data + (1 - decay) * p.data)

    def learn(self, step, x, y):
        loss = F.mse_loss(self.net(x), y)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        sync_now = step % 1000 == 0
        if sync_now:
            self.soft_update()
        if self.warm or step % 1000 == 0:
            self.ema_update()


def train(agent, steps=100000):
    for step in range(steps):
        x, y = torch.randn(32, 8, device=device), torch.randn(32, 2, device=device)
        agent.learn(step, x, y)


if __name__ == "__main__":
    train(Agent())
