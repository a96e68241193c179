# RUN: %check-hints %s
# Batch indices drawn by shuffling or converting the whole population on every training
# step: a replay memory's sample, a data set's random batch.
import random

import numpy as np
import torch
import torch.nn as nn


class ReplayBuffer:
    def __init__(self, size):
        self.obs = np.zeros((size, 4), dtype=np.float32)
        self.max_size, self.ptr, self.size = size, 0, 0

    def store(self, obs):
        self.obs[self.ptr] = obs
        self.ptr = (self.ptr + 1) % self.max_size
        self.size = min(self.size + 1, self.max_size)

    def sample(self, batch_size=32):
        idxs = np.random.choice(self.size, size=batch_size, replace=False)  # expected-hint HARP505
        return self.obs[idxs]

    def sample_over_range(self, batch_size=32):
        idxs = np.random.choice(range(self.size), batch_size)  # expected-hint HARP505
        return self.obs[idxs]

    def sample_with_replacement(self, batch_size=32):  # near miss: O(batch)
        return self.obs[np.random.choice(self.size, batch_size)]

    def sample_python(self, batch_size=32):  # near miss: random.sample is O(batch)
        return self.obs[random.sample(range(self.size), batch_size)]


def evaluate(net, data):  # near miss: runs once per 1000 steps
    idx = np.random.choice(50000, 256, replace=False)
    return net(torch.as_tensor(data[idx])).mean()


net = nn.Linear(4, 2).cuda()
opt = torch.optim.Adam(net.parameters())
memory = ReplayBuffer(100000)
data = np.random.randn(50000, 4).astype(np.float32)
for step in range(100000):
    memory.store(np.random.randn(4))
    batch = memory.sample() + memory.sample_over_range() + memory.sample_with_replacement()
    batch = batch + memory.sample_python()
    rows = data[np.random.permutation(50000)[:32]]  # expected-hint HARP505
    few = np.random.choice(100, 8, replace=False)  # near miss: 100 items
    loss = net(torch.as_tensor(batch + rows).cuda()).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 1000 == 0:
        print(evaluate(net, data).item())

# Near miss: drawn once, before training.
subset = np.random.choice(50000, 1000, replace=False)
