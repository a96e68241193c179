# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# A replay memory a script or notebook keeps at module level (`exp_buffer =
# deque(maxlen=...)`), added to on every step and never emptied, converted whole on every
# training step (`np.array(exp_buffer)[idx]`) only to pick a batch: each step walks and
# copies every stored item. Near miss: a list bound again at the start of each episode is
# a rollout, converted once per episode.
from collections import deque

import numpy as np
import torch
from torch import nn

exp_buffer = deque(maxlen=20000)
net = nn.Linear(4, 2)
opt = torch.optim.SGD(net.parameters(), lr=0.01)


def sample_memories(batch_size):
    idx = np.random.permutation(len(exp_buffer))[:batch_size]  # expected-hint@aggressive HARP505
    mem = np.array(exp_buffer)[idx]  # expected-hint HARP207
    return mem[:, 0], mem[:, 1]


for episode in range(1000):
    rewards = []
    for t in range(200):
        obs = np.random.rand(4)
        exp_buffer.append([obs, 1.0])
        rewards.append(1.0)
        if len(exp_buffer) > 64:
            states, targets = sample_memories(64)
            x = torch.tensor(np.stack(states), dtype=torch.float32)
            loss = (net(x).sum(1) - torch.tensor(targets.astype(np.float32))).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
    returns = np.array(rewards)  # near miss: a rollout, bound again every episode
