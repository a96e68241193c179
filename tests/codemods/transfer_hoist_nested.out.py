import numpy as np
import torch

table = np.ones((3, 3), dtype="float32")
acc = torch.zeros(3, 3)
t = torch.tensor(table)
for epoch in range(2):
    for step in range(2):
        acc = acc + t
print(acc.sum().item())
