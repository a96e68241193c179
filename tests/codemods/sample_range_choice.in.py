import numpy as np
import torch

np.random.seed(0)
torch.manual_seed(0)
data = torch.randn(40000, 4)
net = torch.nn.Linear(4, 1)
opt = torch.optim.SGD(net.parameters(), lr=0.01)
for step in range(50):
    idx = np.random.choice(range(40000), 32)
    loss = net(data[idx]).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
print(loss.item(), net.weight.sum().item())
