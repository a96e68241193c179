import numpy as np
import torch

np.random.seed(2)
torch.manual_seed(2)
n = 60000
features = np.random.randn(n, 5).astype(np.float32)
net = torch.nn.Linear(5, 2)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
total = 0.0
for epoch in range(30):
    batch = features[np.random.choice(n, size=64, replace=True)]
    loss = net(torch.from_numpy(batch)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    total += loss.item()
print(total)
