# RUN: %check-hints %s
# RUN: not %harp analyze %s | FileCheck %s
# The settings an agent keeps (`self.args = args`) and reads in its step come from the
# command line when the object it was built with is what a function of the program
# returns from `parse_args()` (`args = get_args()`): a guard `t % args.x == 0` with the
# default `--x 1` holds on every iteration; with `--y 1000` it is periodic (a near miss).
# CHECK: on every iteration of the `for _` loop (line {{[0-9]+}}) (`step % self.args.target_update_interval == 0` holds on each with the settings' defaults)
import argparse

import torch
from torch import nn


def get_args():
    parse = argparse.ArgumentParser()
    parse.add_argument("--target-update-interval", type=int, default=1)
    parse.add_argument("--sync-interval", type=int, default=1000)
    parse.add_argument("--update-cycles", type=int, default=100)
    args = parse.parse_args()
    return args


class Agent:
    def __init__(self, args):
        self.args = args
        self.net = nn.Linear(3, 1).cuda()
        self.target = nn.Linear(3, 1).cuda()
        self.slow = nn.Linear(3, 1).cuda()
        self.opt = torch.optim.Adam(self.net.parameters())

    def learn(self):
        step = 0
        for _ in range(self.args.update_cycles):
            loss = self.net(torch.randn(8, 3, device="cuda")).sum()
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            if step % self.args.target_update_interval == 0:
                self._soft_update(self.target, self.net)
            if step % self.args.sync_interval == 0:  # near miss: every 1000 updates
                self._average(self.slow, self.net)
            step += 1

    def _soft_update(self, target, source):
        for t, p in zip(target.parameters(), source.parameters()):  # expected-hint HARP405
            t.data.copy_(0.005 * p.data + 0.995 * t.data)

    def _average(self, target, source):
        for t, p in zip(target.parameters(), source.parameters()):
            t.data.copy_(0.5 * p.data + 0.5 * t.data)


if __name__ == "__main__":
    agent = Agent(get_args())
    agent.learn()
