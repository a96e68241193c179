# RUN: %check-hints %s
# A guard's period that is a parameter's default counts also when the function takes
# `*args` or `**kwargs` after its parameters (`def learn(env, ..., train_freq=1,
# **network_kwargs)`, as OpenAI Baselines' DQN has it): the defaults line up with the
# parameters before those. `t % train_freq == 0` with the default 1 holds on most steps;
# the target update's default of 500 is periodic (near miss), and so is a period a
# keyword-only parameter sets, whose default is not read (near miss).
import torch
from torch import nn

device = torch.device("cuda")


def learn(total_timesteps=100000, learning_starts=1000, train_freq=1,
          target_network_update_freq=500, *extra, **network_kwargs):
    net = nn.Linear(3, 1).to(device)
    target = nn.Linear(3, 1).to(device)
    opt = torch.optim.Adam(net.parameters())
    for t in range(total_timesteps):
        x = torch.randn(8, 3, device=device)
        if t > learning_starts and t % train_freq == 0:
            loss = net(x).sum()
            opt.zero_grad()
            loss.backward()
            opt.step()
            for tp, p in zip(target.parameters(), net.parameters()):  # expected-hint HARP405
                tp.data.copy_(0.01 * p.data + 0.99 * tp.data)
        if t > learning_starts and t % target_network_update_freq == 0:
            for tp, p in zip(target.parameters(), net.parameters()):
                tp.data.copy_(0.01 * p.data + 0.99 * tp.data)


def learn_keyword_only(*, total_timesteps=100000, train_freq=1):
    net = nn.Linear(3, 1).to(device)
    target = nn.Linear(3, 1).to(device)
    opt = torch.optim.Adam(net.parameters())
    for t in range(total_timesteps):
        loss = net(torch.randn(8, 3, device=device)).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if t % train_freq == 0:
            for tp, p in zip(target.parameters(), net.parameters()):
                tp.data.copy_(0.01 * p.data + 0.99 * tp.data)


learn(depth=2)
learn_keyword_only(train_freq=1000)
