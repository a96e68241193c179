"""Logistic regression by mini-batch SGD; the features live in NumPy (float64)."""

import os

import numpy as np
import torch

SCALE = float(os.environ.get("HARP_BENCH_SCALE", "1"))
DEVICE = os.environ.get("HARP_BENCH_DEVICE", "cpu")
torch.manual_seed(0)
rng = np.random.default_rng(0)
n, d, batch_size = 120000, 64, 1000
features = rng.normal(size=(n, d))
true_w = rng.normal(size=d)
labels = (features @ true_w + rng.normal(scale=0.5, size=n) > 0).astype(np.float64)

w = torch.zeros(d, device=DEVICE, requires_grad=True)
b = torch.zeros(1, device=DEVICE, requires_grad=True)
optimizer = torch.optim.SGD([w, b], lr=0.5)
steps = 0
total_loss = 0.0
for epoch in range(max(1, int(6 * SCALE))):
    for start in range(0, n, batch_size):
        X = torch.tensor(features, dtype=torch.float32, device=DEVICE)
        y = torch.tensor(labels, dtype=torch.float32, device=DEVICE)
        logits = X[start:start + batch_size] @ w + b
        loss = torch.nn.functional.binary_cross_entropy_with_logits(
            logits, y[start:start + batch_size])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total_loss += loss.item()
        steps += 1

with torch.no_grad():
    X = torch.tensor(features, dtype=torch.float32, device=DEVICE)
    accuracy = ((X @ w + b > 0).float().cpu().numpy() == labels).mean()
print(f"mean loss {total_loss / steps:.5f} accuracy {accuracy:.4f}")
