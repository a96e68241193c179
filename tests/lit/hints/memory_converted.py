# RUN: %check-hints %s
# RUN: not %check-hints --level aggressive %s 2>&1 | FileCheck %s
# CHECK: memory_converted.py:244: unexpected HARP207
# HARP207: a whole kept memory converted to a tensor on every training step, with the near
# misses that must stay silent (a rollout buffer emptied after each update, a sample).
import random
from collections import namedtuple

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

Transition = namedtuple("Transition", ["s", "a", "r"])
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class SAC:
    def __init__(self, capacity=10000):
        self.net = nn.Linear(3, 1).to(device)
        self.opt = torch.optim.Adam(self.net.parameters())
        self.memory = [Transition] * capacity
        self.count = 0

    def store(self, t):
        self.memory[self.count % len(self.memory)] = t
        self.count += 1

    def update(self):
        s = torch.tensor([t.s for t in self.memory]).float().to(device)  # expected-hint HARP207
        r = torch.tensor(np.array([t.r for t in self.memory])).to(device)  # expected-hint HARP207
        index = np.random.choice(len(self.memory), 64)
        loss = F.mse_loss(self.net(s[index]).squeeze(1), r[index].float())
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()


class DQN:
    def __init__(self):
        self.net = nn.Linear(3, 2).to(device)
        self.opt = torch.optim.Adam(self.net.parameters())
        self.memory = []

    def store(self, t):
        self.memory.append(t)

    def update(self):
        # a sample of the memory assembled one object at a time: one hint per function; a
        # batch of 64 costs tens of microseconds (the aggressive level)
        batch = random.sample(self.memory, 64)
        s = torch.tensor([t.s for t in batch]).float().to(device)  # expected-hint@aggressive HARP207
        r = torch.tensor([t.r for t in batch]).float().to(device)
        loss = self.net(s).sum()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()


class PPO:
    def __init__(self):
        self.net = nn.Linear(3, 2).to(device)
        self.opt = torch.optim.Adam(self.net.parameters())
        self.buffer = []

    def store(self, t):
        self.buffer.append(t)

    def update(self):
        # near miss: an on-policy rollout, converted once and emptied after the update
        s = torch.tensor([t.s for t in self.buffer]).float().to(device)
        loss = self.net(s).sum()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        del self.buffer[:]


class Bounded:
    def __init__(self):
        from collections import deque

        self.net = nn.Linear(3, 2).to(device)
        self.opt = torch.optim.Adam(self.net.parameters())
        self.memory = deque(maxlen=100000)

    def store(self, t):
        self.memory.append(t)

    def update(self):
        s = np.stack([t.s for t in self.memory])  # expected-hint HARP207
        idx = np.random.randint(0, len(s), 64)
        loss = self.net(torch.from_numpy(s[idx]).float().to(device)).sum()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()


class Sampler:
    def __init__(self):
        self.net = nn.Linear(3, 1).to(device)
        self.opt = torch.optim.Adam(self.net.parameters())
        self.buffer = []

    def store(self, t):
        self.buffer.append(t)

    def update(self):
        batch = random.sample(self.buffer, 256)
        s, a, r = map(np.stack, zip(*batch))  # expected-hint HARP207
        loss = self.net(torch.from_numpy(s).float().to(device)).sum()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()


class Warming(Sampler):
    """Samples all it has until the memory holds a batch: both branches sample the memory."""

    def update(self):
        batch = []
        if len(self.buffer) < 256:
            batch = random.sample(self.buffer, len(self.buffer))
        else:
            batch = random.sample(self.buffer, 256)
        s = np.array([t.s for t in batch])  # expected-hint HARP207
        r = np.array([t.r for t in batch])
        loss = self.net(torch.from_numpy(s).float().to(device)).sum() + float(r.sum())
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()


class TwoSources(Sampler):
    """Near miss: one branch samples a list made for this call, not the kept memory."""

    def update(self):
        if len(self.buffer) < 256:
            batch = random.sample([self.buffer[-1]] * 4, 4)
        else:
            batch = random.sample(self.buffer, 256)
        s = np.array([t.s for t in batch])
        loss = self.net(torch.from_numpy(s).float().to(device)).sum()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()


class Memory:
    def __init__(self):
        self.items = []

    def add(self, t):
        self.items.append(t)

    def get_batch(self, k):
        return random.sample(self.items, k)


class Delegating(Sampler):
    """The sample comes back from the memory's own method."""

    def __init__(self):
        super().__init__()
        self.memory = Memory()

    def store(self, t):
        self.memory.add(t)

    def update(self):
        minibatch = self.memory.get_batch(128)
        s = np.asarray([t.s for t in minibatch])  # expected-hint HARP207
        loss = self.net(torch.from_numpy(s).float().to(device)).sum()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()


class Unzipped(Sampler):
    """The sample comes back from the memory's method as the first of a tuple and is
    unzipped into fields, each converted on its own."""

    def sample(self, k):
        return random.sample(self.buffer, k), None, None

    def update(self):
        transitions, indices, weights = self.sample(128)
        s, a, r = zip(*transitions)
        s = torch.tensor(s, device=device, dtype=torch.float)  # expected-hint HARP207
        r = torch.tensor(r, device=device, dtype=torch.float)
        loss = self.net(s).sum() + r.sum()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()


class UnzippedRollout(Sampler):
    """Near miss: fields unzipped from the whole rollout, which the update empties (an
    on-policy batch, converted once per rollout)."""

    def update(self):
        s, a, r = zip(*self.buffer)
        s = torch.tensor(s, device=device, dtype=torch.float)
        self.buffer = []
        loss = self.net(s).sum()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()


def run(agent, env):
    for step in range(100000):
        s, r = env.step()
        agent.store(Transition(s, 0, r))
        if step > 1000:
            agent.update()


def main(env):
    run(SAC(), env)
    run(DQN(), env)
    run(PPO(), env)
    run(Bounded(), env)
    run(Sampler(), env)
    run(Warming(), env)
    run(TwoSources(), env)
    run(Delegating(), env)
    run(Unzipped(), env)
    run(UnzippedRollout(), env)



class Episodic:
    def __init__(self):
        self.net = nn.Linear(3, 1).to(device)
        self.opt = torch.optim.Adam(self.net.parameters())
        self.memory = []

    def store(self, t):
        self.memory.append(t)

    def update(self):
        # near miss at the default level: called once per episode, when it ends
        s = torch.tensor([t.s for t in self.memory]).float().to(device)
        loss = self.net(s).sum()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()


def episodes(env):
    agent = Episodic()
    for episode in range(1000):
        for t in range(10000):
            s, r, done = env.step()
            agent.store(Transition(s, 0, r))
            x = agent.net(torch.tensor(s, device=device))
            if done:
                agent.update()
                break


class Indexed(Sampler):
    """A batch drawn by index and assembled field by field in a loop (TD3's list memory):
    one hint per sampling function, at its first conversion."""

    def sample(self, k):
        indexes = np.random.randint(0, len(self.buffer), size=k)
        state, reward = [], []
        for i in indexes:
            s, a, r = self.buffer[i]
            state.append(np.array(s, copy=False))
            reward.append(r)
        return np.array(state), np.array(reward)  # expected-hint HARP207

    def update(self):
        s, r = self.sample(100)
        loss = self.net(torch.from_numpy(s).float().to(device)).sum()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()


class IndexedRollout(Sampler):
    """Near miss: the lists are filled from a rollout passed in, not from the kept memory."""

    def sample(self, rollout):
        state = []
        for s, a, r in rollout:
            state.append(np.array(s, copy=False))
        return np.array(state)

    def update(self):
        s = self.sample(self.buffer[-10:])
        loss = self.net(torch.from_numpy(s).float().to(device)).sum()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()


def indexed(env):
    run(Indexed(), env)
    run(IndexedRollout(), env)


class IndexedFields(Sampler):
    """The same, each field read by its place in the stored tuple (HAC's memory)."""

    def sample(self, k):
        indexes = np.random.randint(0, len(self.buffer), size=k)
        states, rewards = [], []
        for i in indexes:
            states.append(np.array(self.buffer[i][0], copy=False))
            rewards.append(np.array(self.buffer[i][2], copy=False))
        return np.array(states), np.array(rewards)  # expected-hint HARP207

    def update(self):
        s, r = self.sample(100)
        loss = self.net(torch.from_numpy(s).float().to(device)).sum()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()


def indexed_fields(env):
    run(IndexedFields(), env)
