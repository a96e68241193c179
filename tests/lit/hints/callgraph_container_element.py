# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# An instance read from a list its class keeps (`self.buffers[i]`, made as `[Buffer()]`
# and appended to) is an instance of the list's element class: its methods run where it
# is called, here a sample passed to each level's update (Hierarchical Actor-Critic).
# Near miss: a list that also holds something else resolves to nothing.
import numpy as np
import torch
from torch import nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class Buffer:
    def __init__(self):
        self.buffer = []

    def add(self, t):
        self.buffer.append(t)

    def sample(self, k):
        indexes = np.random.randint(0, len(self.buffer), size=k)
        states, rewards = [], []
        for i in indexes:
            states.append(np.array(self.buffer[i][0], copy=False))
            rewards.append(np.array(self.buffer[i][1], copy=False))
        return np.array(states), np.array(rewards)  # expected-hint HARP207


class Mixed:
    def __init__(self):
        self.buffer = []

    def add(self, t):
        self.buffer.append(t)

    def sample(self, k):
        indexes = np.random.randint(0, len(self.buffer), size=k)
        states = []
        for i in indexes:
            states.append(np.array(self.buffer[i][0], copy=False))
        return np.array(states)


class Level:
    def __init__(self):
        self.net = nn.Linear(4, 1).to(device)
        self.opt = torch.optim.Adam(self.net.parameters())

    def update(self, buffer, n_iter):
        for _ in range(n_iter):
            s, r = buffer.sample(100)
            loss = (self.net(torch.as_tensor(s, device=device)).squeeze(1) -
                    torch.as_tensor(r, device=device)).pow(2).mean()
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()

    def update_mixed(self, memory, n_iter):
        for _ in range(n_iter):
            s = memory.sample(100)
            loss = self.net(torch.as_tensor(s, device=device)).mean()
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()


class Hierarchy:
    def __init__(self, k):
        self.levels = [Level()]
        self.buffers = [Buffer()]
        self.memories = [Mixed(), None]
        for _ in range(k - 1):
            self.levels.append(Level())
            self.buffers.append(Buffer())

    def store(self, i, t):
        self.buffers[i].add(t)
        self.memories[0].add(t)

    def update(self, n_iter):
        for i in range(len(self.levels)):
            self.levels[i].update(self.buffers[i], n_iter)
            self.levels[i].update_mixed(self.memories[i], n_iter)


agent = Hierarchy(2)
for episode in range(1000):
    for t in range(200):
        agent.store(t % 2, (np.zeros(4, np.float32), np.float32(0.0)))
    agent.update(100)
