"""Class visualisation: an input image optimised by gradient ascent through a fixed CNN
(nothing trains the network; only the image's gradient is used)."""

import os

import torch
from torch import nn

SCALE = float(os.environ.get("HARP_BENCH_SCALE", "1"))
DEVICE = os.environ.get("HARP_BENCH_DEVICE", "cpu")
torch.manual_seed(0)
net = nn.Sequential(
    nn.Conv2d(3, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(64, 128, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
    nn.Flatten(), nn.Linear(128, 10)).to(DEVICE)
net.eval()
image = torch.rand(8, 3, 96, 96, device=DEVICE, requires_grad=True)
ascent = torch.optim.SGD([image], lr=0.05)
for i in range(int(100 * SCALE)):
    ascent.zero_grad()
    score = net(image)[:, 3].sum() - 0.01 * image.pow(2).sum()
    (-score).backward()
    ascent.step()
with torch.no_grad():
    final = net(image)[:, 3]
print(f"class score {final.mean().item():.5f} image mean {image.mean().item():.5f}")
