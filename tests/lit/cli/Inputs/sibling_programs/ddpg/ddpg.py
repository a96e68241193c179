import torch
from torch import nn


class DDPGAgent:
    def __init__(self):
        self.actor = nn.Linear(4, 1)
        self.actor_target = nn.Linear(4, 1)
        self.opt = torch.optim.Adam(self.actor.parameters())

    def update(self, state):
        loss = self.actor(state).pow(2).mean()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        for param, target_param in zip(self.actor.parameters(), self.actor_target.parameters()):
            target_param.data.copy_(0.005 * param.data + 0.995 * target_param.data)
