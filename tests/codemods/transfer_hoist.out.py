import numpy as np
import torch

data = np.arange(8, dtype="float32").reshape(2, 4)
w = torch.ones(4, 1)
total = torch.zeros(())

steps = 20
# train
x = torch.tensor(data)
sum_hoisted = (x @ w).sum()
for step in range(steps):
    total = total + sum_hoisted
print(total.item())
