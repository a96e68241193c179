import numpy as np
import torch

data = np.arange(8, dtype="float32").reshape(2, 4)
w = torch.ones(4, 1)
total = torch.zeros(())

# train
x = torch.from_numpy(data)
for step in range(3):
    total = total + (x @ w).sum()
print(total.item())
