"""Standardise a sensor signal and squash outliers before it is fed to a model."""

import os

import torch

SCALE = float(os.environ.get("HARP_BENCH_SCALE", "1"))
DEVICE = os.environ.get("HARP_BENCH_DEVICE", "cpu")
torch.manual_seed(3)
signal = torch.randn(int(300000 * SCALE), device=DEVICE) * 4.0 + 1.5
mean = float(signal.mean())
std = float(signal.std())

normalized = torch.empty_like(signal)
for i in range(len(signal)):
    normalized[i] = torch.tanh((signal[i] - mean) / std)

print(f"mean {normalized.mean().item():.6f} std {normalized.std().item():.6f}")
print(f"checksum {normalized.abs().sum().item():.3f}")
