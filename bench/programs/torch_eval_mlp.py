"""Evaluate a trained MLP classifier batch by batch and collect every prediction."""

import os

import torch
from torch import nn

SCALE = float(os.environ.get("HARP_BENCH_SCALE", "1"))
DEVICE = os.environ.get("HARP_BENCH_DEVICE", "cpu")
torch.manual_seed(2)
model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 10)).to(DEVICE)
model.eval()
batches = [torch.randn(16, 32, device=DEVICE) for _ in range(int(3500 * SCALE))]

all_logits = torch.empty(0, 10, device=DEVICE)
for batch in batches:
    logits = model(batch)
    all_logits = torch.cat([all_logits, logits])

predictions = all_logits.argmax(dim=1)
print("predicted", all_logits.shape[0], "histogram", torch.bincount(predictions,
                                                                    minlength=10).tolist())
print(f"mean max logit {all_logits.max(dim=1).values.mean().item():.5f}")
