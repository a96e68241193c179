import numpy as np
import torch

CAPACITY = 50_000


class Memory:
    def __init__(self, capacity):
        self.states = np.zeros((capacity, 3), dtype=np.float32)
        self.capacity = capacity

    def sample(self, k):
        idx = np.random.choice(list(range(CAPACITY)), k, replace=False)
        return torch.from_numpy(self.states[idx])


np.random.seed(1)
torch.manual_seed(1)
memory = Memory(CAPACITY)
memory.states[:] = np.random.randn(CAPACITY, 3)
net = torch.nn.Linear(3, 1)
opt = torch.optim.Adam(net.parameters())
for step in range(40):
    loss = net(memory.sample(16)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
print(loss.item(), net.bias.item())
