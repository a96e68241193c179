# RUN: %check-hints --level aggressive %s
# At the aggressive level, also draws from a population whose size the code does not
# state (a replay memory's current fill, a data set's length) or states below a
# millisecond's worth.
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


net = nn.Linear(4, 2).cuda()
opt = torch.optim.Adam(net.parameters())
memory = ReplayBuffer(100000)
images = np.random.randn(55000, 4).astype(np.float32)
for step in range(100000):
    memory.store(np.random.randn(4))
    batch = memory.sample()
    rows = images[np.random.choice(range(len(images)), 32)]  # expected-hint HARP505
    some = np.random.choice(20000, 8, replace=False)  # expected-hint HARP505
    loss = net(torch.as_tensor(batch + rows).cuda()).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
