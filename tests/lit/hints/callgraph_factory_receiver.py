# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# An agent built by a factory harp cannot follow (`hydra.utils.instantiate(cfg.agent)`):
# its `update(buffer, step)` is the program's when one class hierarchy defines a method of
# that name taking those arguments (class hierarchy analysis), so the work `update` does
# runs on every step of the workspace's loop. Near misses: a name every library object
# has (`reset`), a name two unrelated classes define, arguments no candidate takes.
import hydra
import torch
from torch import nn

device = torch.device("cuda")


class Agent:
    def update(self, buffer, step):
        raise NotImplementedError

    def report(self, logger):
        pass


class SACAgent(Agent):
    def __init__(self):
        self.net = nn.Linear(3, 1).to(device)
        self.opt = torch.optim.Adam(self.net.parameters())
        self.memory = []

    def remember(self, t):
        self.memory.append(t)

    def update(self, buffer, step):
        states = torch.tensor([t for t in self.memory]).float().to(device)  # expected-hint HARP207
        loss = self.net(states).sum()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()

    def report(self, logger):
        pass

    def estimate(self, batch, horizon):
        return torch.tensor([t for t in self.memory]).float().to(device)


class Meter:  # another `update`: it takes other arguments
    def update(self, value):
        self.value = value


class Plotter:  # another `report`, in an unrelated class: the name is ambiguous
    def report(self, logger):
        self.shown = torch.tensor([t for t in logger.rows])


class Workspace:
    def __init__(self, cfg):
        self.agent = hydra.utils.instantiate(cfg.agent)
        self.meter = Meter()

    def run(self, env):
        for step in range(100000):
            self.agent.remember(env.observe())
            self.agent.update(None, step)
            self.agent.report(None)
            self.agent.estimate(None)  # one argument short: no candidate takes it
            self.meter.update(step)
