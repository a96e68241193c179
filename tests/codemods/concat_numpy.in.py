import numpy as np
import torch

rng = np.random.default_rng(0)
acc = np.zeros((0, 2))
for step in range(200):
    scores = torch.tanh(torch.ones(1, 2) * step).numpy()  # model work each step
    acc = np.concatenate([acc, rng.normal(size=(1, 2)) + scores])
print(acc.sum(), len(acc))
