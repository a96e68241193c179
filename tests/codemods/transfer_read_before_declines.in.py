import numpy as np
import torch

data = np.ones(3, dtype="float32")
x = torch.zeros(3)
seen = []
steps = 20
for step in range(steps):
    seen.append(x.sum().item())
    x = torch.tensor(data)
print(seen)
