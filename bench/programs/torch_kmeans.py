"""k-means clustering (Lloyd's algorithm) of points kept as a NumPy array, assigned in
chunks to bound the memory of the distance matrix."""

import os

import numpy as np
import torch

SCALE = float(os.environ.get("HARP_BENCH_SCALE", "1"))
DEVICE = os.environ.get("HARP_BENCH_DEVICE", "cpu")
rng = np.random.default_rng(1)
k, d, chunk = 8, 16, 128
centers = rng.normal(scale=6.0, size=(k, d))
data = centers[rng.integers(0, k, size=600000)] + rng.normal(size=(600000, d))

centroids = torch.tensor(data[:k], dtype=torch.float32, device=DEVICE)
for iteration in range(max(1, int(6 * SCALE))):
    points = torch.tensor(data, dtype=torch.float32, device=DEVICE)
    assignment = torch.zeros(0, dtype=torch.long, device=DEVICE)
    for block in points.split(chunk):
        assignment = torch.cat([assignment, torch.cdist(block, centroids).argmin(dim=1)])
    sums = torch.zeros(k, d, device=DEVICE).index_add_(0, assignment, points)
    counts = torch.bincount(assignment, minlength=k).clamp(min=1).unsqueeze(1)
    centroids = sums / counts

inertia = ((points - centroids[assignment]) ** 2).sum()
print(f"inertia {float(inertia):.1f}")
print("sizes", sorted(torch.bincount(assignment, minlength=k).tolist()))
