import numpy as np
import torch

data = np.arange(8, dtype="float32").reshape(2, 4)
w = torch.ones(4, 1)
total = torch.zeros(())

steps = 20
# train
for step in range(steps):
    x = torch.tensor(data)
    total = total + (x @ w).sum()
print(total.item())
