import torch
from torch import nn


class Agent:
    def __init__(self):
        self.q = nn.Linear(4, 2)
        self.q_target = nn.Linear(4, 2)
        self.opt = torch.optim.Adam(self.q.parameters())

    def train(self, state):
        loss = self.q(state).pow(2).mean()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()

    def sync(self):
        # called every 8000 steps: not a hint
        for param, target_param in zip(self.q.parameters(), self.q_target.parameters()):
            target_param.data.copy_(0.005 * param.data + 0.995 * target_param.data)
