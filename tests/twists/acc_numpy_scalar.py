# twist: `.item()` on a numpy scalar, not a tensor
import numpy as np
import torch  # noqa: F401

rng = np.random.default_rng(0)
total = 0.0
for _ in range(64):
    batch = rng.normal(size=5).astype(np.float32)
    total += batch.mean().item()
print(f"{total:.5f}")
