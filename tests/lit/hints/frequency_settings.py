# RUN: %check-hints %s
# RUN: not %harp analyze --level aggressive --format json %s | FileCheck --check-prefix=AGGRESSIVE %s
# A guard's period that is a setting counts by the value a run gets unless told otherwise:
# an argparse default (through the object an agent is constructed with) or a parameter's
# default. A period of at most 8 keeps most steps (default level); 100 is periodic. A
# soft update on one step in 2 costs a few percent of a step (the aggressive level's,
# which names the period it resolved).
# AGGRESSIVE: "reason": "it runs on one step in 2 (where `self.it % self.policy_freq == 0` holds)
import argparse

import torch
from torch import nn

parser = argparse.ArgumentParser()
parser.add_argument("--target_update_interval", type=int, default=1)
parser.add_argument("--updates-every", type=int, default=100)
args = parser.parse_args()
device = torch.device("cuda")


class Agent:
    def __init__(self, args, policy_freq=2):
        self.net = nn.Linear(3, 1).to(device)
        self.target = nn.Linear(3, 1).to(device)
        self.opt = torch.optim.Adam(self.net.parameters())
        self.interval = args.target_update_interval
        self.policy_freq = policy_freq
        self.every = args.updates_every
        self.it = 0

    def update(self, x):
        self.it += 1
        loss = self.net(x).sum()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        if self.it % self.interval == 0:
            for t, p in zip(self.target.parameters(), self.net.parameters()):  # expected-hint HARP405
                t.data.copy_(0.01 * p.data + 0.99 * t.data)
        if self.it % self.policy_freq == 0:  # near miss: one update in 2
            for t, p in zip(self.target.parameters(), self.net.parameters()):
                t.data.copy_(0.01 * p.data + 0.99 * t.data)
        # near miss: every 100 updates
        if self.it % self.every == 0:
            for t, p in zip(self.target.parameters(), self.net.parameters()):
                t.data.copy_(0.01 * p.data + 0.99 * t.data)


agent = Agent(args)
for step in range(100000):
    agent.update(torch.randn(8, 3, device=device))
