# RUN: %check-hints %s
# A method held in an attribute (`self.maybe_update_target = self.polyak_update`): calling
# the attribute runs the class's method, so the per-parameter soft update runs on every
# training step. Near misses: a choice between two methods (which one a run takes is a
# setting), a function from elsewhere.
import torch
from torch import nn


class DQN:
    def __init__(self, polyak=False):
        self.Q = nn.Linear(4, 2).cuda()
        self.Q_target = nn.Linear(4, 2).cuda()
        self.opt = torch.optim.Adam(self.Q.parameters())
        self.iterations = 0
        self.maybe_update_target = self.polyak_update

    def train(self, s):
        loss = self.Q(s).pow(2).mean()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.iterations += 1
        self.maybe_update_target()

    def polyak_update(self):
        for param, target_param in zip(self.Q.parameters(), self.Q_target.parameters()):  # expected-hint HARP405
            target_param.data.copy_(0.005 * param.data + 0.995 * target_param.data)

    def copy_update(self):
        if self.iterations % 8000 == 0:
            self.Q_target.load_state_dict(self.Q.state_dict())


policy = DQN(polyak=True)
for t in range(100000):
    policy.train(torch.randn(32, 4).cuda())


class Held:
    """Near miss: the attribute also holds a function from elsewhere, so what it runs is
    not known."""

    def __init__(self, update=None):
        self.Q = nn.Linear(4, 2).cuda()
        self.Q_target = nn.Linear(4, 2).cuda()
        self.update_target = update or self.polyak_update

    def train(self, s):
        self.update_target()

    def polyak_update(self):
        for param, target_param in zip(self.Q.parameters(), self.Q_target.parameters()):
            target_param.data.copy_(0.005 * param.data + 0.995 * target_param.data)


held = Held()
for t in range(100000):
    held.train(torch.randn(32, 4).cuda())


class Chosen(Held):
    def __init__(self, polyak=False):
        self.Q = nn.Linear(4, 2).cuda()
        self.Q_target = nn.Linear(4, 2).cuda()
        self.update_target = self.polyak_update if polyak else self.copy_update

    def copy_update(self):
        self.Q_target.load_state_dict(self.Q.state_dict())


chosen = Chosen()
for t in range(100000):
    chosen.train(torch.randn(32, 4).cuda())
