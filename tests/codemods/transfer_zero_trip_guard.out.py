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
    detach_hoisted = sum_hoisted.detach()
    double_hoisted = detach_hoisted.double()
for step in step_range:
    total += double_hoisted
total = total.item() if torch.is_tensor(total) else total
print(round(total, 3))
