# RUN: %check-hints %s
# HARP405: a model's parameters updated one tensor at a time on every training step, with
# the near misses that must stay silent.
import copy

import torch
import torch.nn.functional as F
from torch import nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class Agent:
    def __init__(self, tau=0.005):
        self.actor = nn.Linear(4, 2).to(device)
        self.actor_target = copy.deepcopy(self.actor)
        self.critic = nn.Linear(6, 1).to(device)
        self.critic_target = copy.deepcopy(self.critic)
        self.actor_opt = torch.optim.Adam(self.actor.parameters())
        self.critic_opt = torch.optim.Adam(self.critic.parameters())
        self.tau = tau
        # near miss: runs once, at construction
        for t, p in zip(self.actor_target.parameters(), self.actor.parameters()):
            t.data.copy_(p.data * 1.0 + 0.0)

    def soft_update(self, local, target):
        for target_param, local_param in zip(target.parameters(), local.parameters()):  # expected-hint HARP405
            target_param.data.copy_(self.tau * local_param.data +
                                    (1.0 - self.tau) * target_param.data)

    def learn(self, s, a, r, s2):
        q = self.critic(torch.cat([s, a], 1))
        loss = F.mse_loss(q, r)
        self.critic_opt.zero_grad()
        loss.backward()
        self.critic_opt.step()
        self.soft_update(self.critic, self.critic_target)

    def clip(self):
        # near miss: one operation per parameter (WGAN weight clipping)
        for p in self.critic.parameters():
            p.data.clamp_(-0.01, 0.01)


def train(env, memory, agent, steps):
    for step in range(steps):
        s, a, r, s2 = memory.sample(64)
        agent.learn(s.to(device), a.to(device), r.to(device), s2.to(device))
        agent.clip()


def ema(model, shadow, loader, opt, decay=0.999):
    for x, y in loader:
        loss = F.cross_entropy(model(x.to(device)), y.to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
        with torch.no_grad():
            for e, p in zip(shadow.parameters(), model.parameters()):  # expected-hint HARP405
                e.mul_(decay).add_(p, alpha=1 - decay)


def periodic(model, target, loader, opt):
    # near miss at the default level: a periodic guard (every 1000 steps)
    for i, (x, y) in enumerate(loader):
        loss = F.cross_entropy(model(x.to(device)), y.to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
        if i % 1000 == 0:
            for t, p in zip(target.parameters(), model.parameters()):
                t.data.copy_(0.5 * p.data + 0.5 * t.data)


def manual_sgd(model, loader, lr=0.1):
    # a hand-written SGD step: two launches per parameter (`lr * p.grad`, the in-place sub)
    for x, y in loader:
        loss = F.cross_entropy(model(x.to(device)), y.to(device))
        model.zero_grad()
        loss.backward()
        with torch.no_grad():
            for p in model.parameters():  # expected-hint HARP405
                p -= lr * p.grad


if __name__ == "__main__":
    train(None, None, Agent(), 100000)
    ema(None, None, None, None)
    periodic(None, None, None, None)
    manual_sgd(None, None)
