import os

import torch

scale = float(os.environ.get("SCALE", "1"))
device = torch.device("cpu")
torch.manual_seed(1)
w = torch.randn(16, 4)
x = torch.randn(32, 16)
total = 0.0
for step in range(int(5 * scale)):
    w_dev = w.to(device)
    total += float((x @ w_dev).sum())
print(round(total, 3))
