"""A small GAN that learns a 2-D ring distribution."""

import math
import os

import numpy as np
import torch
from torch import nn

SCALE = float(os.environ.get("HARP_BENCH_SCALE", "1"))
DEVICE = os.environ.get("HARP_BENCH_DEVICE", "cpu")
torch.manual_seed(5)
B, Z = 256, 8
generator = nn.Sequential(nn.Linear(Z, 64), nn.ReLU(), nn.Linear(64, 2)).to(DEVICE)
discriminator = nn.Sequential(nn.Linear(2, 64), nn.LeakyReLU(0.2), nn.Linear(64, 1)).to(DEVICE)
g_opt = torch.optim.Adam(generator.parameters(), lr=1e-3)
d_opt = torch.optim.Adam(discriminator.parameters(), lr=1e-3)
bce = nn.BCEWithLogitsLoss()
rng = np.random.default_rng(5)
angles = rng.uniform(0, 2 * math.pi, size=5_000_000)
dataset = np.stack([np.cos(angles), np.sin(angles)], axis=1) + 0.05 * rng.normal(
    size=(5_000_000, 2))

d_total = g_total = 0.0
for step in range(int(600 * SCALE)):
    index = torch.randint(0, len(dataset), (B,), device=DEVICE)
    real = torch.tensor(dataset, dtype=torch.float32, device=DEVICE)[index]
    fake = generator(torch.randn(B, Z, device=DEVICE))
    d_opt.zero_grad(set_to_none=False)
    d_loss = bce(discriminator(real), torch.ones(B, 1, device=DEVICE)) + \
        bce(discriminator(fake.detach()), torch.zeros(B, 1, device=DEVICE))
    d_loss.backward()
    d_opt.step()
    g_opt.zero_grad(set_to_none=False)
    g_loss = bce(discriminator(fake), torch.ones(B, 1, device=DEVICE))
    g_loss.backward()
    g_opt.step()
    d_total += d_loss.item()
    g_total += g_loss.item()

print(f"d {d_total / (step + 1):.4f} g {g_total / (step + 1):.4f}")
