# twist: the input is rebound by a called function's `global`
# expect: HARP301 declined "`scale` is assigned by another scope"
import torch

scale = torch.tensor(1.0)


def bump():
    global scale
    scale = scale * 2


for _ in range(40):
    y = torch.exp(scale)
    print(f"{y.item():.4f}")
    bump()
