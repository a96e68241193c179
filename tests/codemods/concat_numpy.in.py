import numpy as np

rng = np.random.default_rng(0)
acc = np.zeros((0, 2))
for step in range(5):
    acc = np.concatenate([acc, rng.normal(size=(1, 2))])
print(acc.sum(), len(acc))
