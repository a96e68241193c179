import numpy as np

rng = np.random.default_rng(0)
acc = np.zeros((0, 2))
acc_parts = [acc]
for step in range(5):
    acc_parts.append(rng.normal(size=(1, 2)))
acc = np.concatenate(acc_parts)
print(acc.sum(), len(acc))
