import numpy as np
import torch

data = np.ones(3, dtype="float32")
x = torch.zeros(3)
seen = []
for step in range(3):
    seen.append(x.sum().item())
    x = torch.tensor(data)
print(seen)
