import os

import torch

scale = float(os.environ.get("SCALE", "1"))
device = torch.device("cpu")
torch.manual_seed(1)
w = torch.randn(16, 4)
x = torch.randn(32, 16)
total = 0.0
step_range = range(int(5 * scale))
if step_range:
    w_dev = w.to(device)
    sum_hoisted = (x @ w_dev).sum()
for step in step_range:
    total += float(sum_hoisted)
print(round(total, 3))
