# RUN: %check-hints %s
# Batch indices drawn by shuffling or converting the whole population on every training
# step, where the program states a population large enough for the draw to cost a
# millisecond or more (a replay memory of 200,000 transitions, a data set of 60,000 rows).
import random

import numpy as np
import torch
import torch.nn as nn

MEMORY_SIZE = 200_000


class ReplayBuffer:
    def __init__(self):
        self.obs = np.zeros((MEMORY_SIZE, 4), dtype=np.float32)
        self.ptr = 0

    def store(self, obs):
        self.obs[self.ptr] = obs
        self.ptr = (self.ptr + 1) % MEMORY_SIZE

    def sample(self, batch_size=32):
        idxs = np.random.choice(MEMORY_SIZE, size=batch_size, replace=False)  # expected-hint HARP505
        return self.obs[idxs]

    def sample_over_range(self, batch_size=32):
        idxs = np.random.choice(range(MEMORY_SIZE), batch_size)  # expected-hint HARP505
        return self.obs[idxs]

    def sample_with_replacement(self, batch_size=32):  # near miss: O(batch)
        return self.obs[np.random.choice(MEMORY_SIZE, batch_size)]

    def sample_python(self, batch_size=32):  # near miss: random.sample is O(batch)
        return self.obs[random.sample(range(MEMORY_SIZE), batch_size)]


def evaluate(net, data):  # near miss: runs once per 1000 steps
    idx = np.random.choice(200000, 256, replace=False)
    return net(torch.as_tensor(data[idx])).mean()


net = nn.Linear(4, 2).cuda()
opt = torch.optim.Adam(net.parameters())
memory = ReplayBuffer()
data = np.random.randn(200000, 4).astype(np.float32)
for step in range(100000):
    memory.store(np.random.randn(4))
    batch = memory.sample() + memory.sample_over_range() + memory.sample_with_replacement()
    batch = batch + memory.sample_python()
    rows = data[np.random.permutation(200000)[:32]]  # expected-hint HARP505
    few = np.random.choice(100, 8, replace=False)  # near miss: 100 items
    some = np.random.choice(20000, 8, replace=False)  # near miss: 0.24 ms (aggressive)
    action = np.random.choice(range(MEMORY_SIZE), p=None)  # near miss: one draw, no batch
    other = np.random.choice(range(MEMORY_SIZE), 1).item()  # near miss: one draw
    unstated = np.random.choice(len(data), 32, replace=False)  # near miss: size unstated
    loss = net(torch.as_tensor(batch + rows).cuda()).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 1000 == 0:
        print(evaluate(net, data).item())

# Near miss: drawn once, before training.
subset = np.random.choice(200000, 1000, replace=False)
