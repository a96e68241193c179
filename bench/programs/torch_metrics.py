"""Validation metrics of a binary classifier: accuracy, and ROC AUC over all scores."""

import os

import torch
from torch import nn

SCALE = float(os.environ.get("HARP_BENCH_SCALE", "1"))
DEVICE = os.environ.get("HARP_BENCH_DEVICE", "cpu")
torch.manual_seed(7)
model = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 1)).to(DEVICE)
w_true = torch.randn(20, device=DEVICE)
loader = []
for _ in range(int(6000 * SCALE)):
    x = torch.randn(32, 20, device=DEVICE)
    loader.append((x, (x @ w_true > 0).float()))

scores = torch.zeros(0, device=DEVICE)
targets = torch.zeros(0, device=DEVICE)
correct = 0
for x, y in loader:
    logits = model(x).squeeze(1)
    scores = torch.cat([scores, torch.sigmoid(logits)])
    targets = torch.cat([targets, y])
    correct += ((logits > 0).float() == y).sum()

order = scores.argsort(descending=True)
ranked = targets[order]
tpr = ranked.cumsum(0) / ranked.sum()
fpr = (1 - ranked).cumsum(0) / (1 - ranked).sum()
auc = torch.trapz(tpr, fpr)
print(f"accuracy {float(correct) / len(scores):.4f} auc {auc.item():.4f}")
