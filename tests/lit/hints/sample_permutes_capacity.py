# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# A replay memory's size is its length, which the code never states as a number; what it
# states is the capacity: `deque(maxlen=n)`, a list the class trims whenever it outgrows a
# setting (through a property here), or a counter kept as `min(size + 1, max_size)`. A
# memory the loop adds to on every step (or extends by a list of transitions) holds that
# many for most of the run; one that gains an item per episode stays small.
from collections import deque

import numpy as np
import torch
import torch.nn as nn


class DequeMemory:
    def __init__(self, capacity=100000):
        self.buffer = deque(maxlen=capacity)

    def push(self, transition):
        self.buffer.append(transition)

    def sample(self, k):
        idx = np.random.choice(range(len(self.buffer)), size=k)  # expected-hint HARP505
        return [self.buffer[i] for i in idx]


class TrimmedMemory:
    def __init__(self, capacity=200000):
        self.buffer = []
        self.capacity = capacity

    def add(self, records):
        self.buffer += records
        while self.size > self.capacity:
            self.buffer.pop(0)

    @property
    def size(self):
        return len(self.buffer)

    def sample(self, k):
        idx = np.random.choice(len(self.buffer), k, replace=False)  # expected-hint HARP505
        return [self.buffer[i] for i in idx]


class CountedMemory:
    def __init__(self, max_size=200000):
        self.obs = np.zeros((max_size, 4), dtype=np.float32)
        self.max_size = max_size
        self.ptr, self.size = 0, 0

    def store(self, obs):
        self.obs[self.ptr] = obs
        self.ptr = (self.ptr + 1) % self.max_size
        self.size = min(self.size + 1, self.max_size)

    def sample(self, k):
        return self.obs[np.random.choice(self.size, k, replace=False)]  # expected-hint HARP505


class EpisodeMemory:  # near miss: gains one item per episode, so it stays small
    def __init__(self, capacity=100000):
        self.episodes = deque(maxlen=capacity)

    def add(self, episode):
        self.episodes.append(episode)

    def sample(self, k):
        idx = np.random.choice(range(len(self.episodes)), size=k)  # expected-hint@aggressive HARP505
        return [self.episodes[i] for i in idx]


class SmallMemory:  # near miss: 2,000 items cost about 0.07 ms a step
    def __init__(self, capacity=2000):
        self.buffer = deque(maxlen=capacity)

    def push(self, transition):
        self.buffer.append(transition)

    def sample(self, k):
        idx = np.random.choice(range(len(self.buffer)), size=k)  # expected-hint@aggressive HARP505
        return [self.buffer[i] for i in idx]


net = nn.Linear(4, 2).cuda()
opt = torch.optim.Adam(net.parameters())
deque_memory, trimmed, counted = DequeMemory(), TrimmedMemory(), CountedMemory()
episodes, small = EpisodeMemory(), SmallMemory()
for episode in range(1000):
    steps = []
    for t in range(200):
        obs = np.random.randn(4)
        deque_memory.push(obs)
        small.push(obs)
        counted.store(obs)
        steps.append(obs)
        batch = deque_memory.sample(32) + trimmed.sample(32) + episodes.sample(8)
        batch = batch + small.sample(32) + [counted.sample(32)]
        loss = net(torch.as_tensor(np.stack(batch), dtype=torch.float32).cuda()).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
    trimmed.add(steps)
    episodes.add(steps)
