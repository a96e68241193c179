import numpy as np
import torch

np.random.seed(3)
torch.manual_seed(3)
data = torch.randn(400000, 4)
net = torch.nn.Linear(4, 1)
opt = torch.optim.SGD(net.parameters(), lr=0.01)
for step in range(20):
    idx = np.random.choice(400000, 32, replace=False)
    loss = net(data[idx]).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
print(loss.item())
