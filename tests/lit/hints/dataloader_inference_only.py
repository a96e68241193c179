# RUN: %check-hints %s
# Near miss for HARP501: no training in this program, so the loader is not flagged.
import torch
from torch.utils.data import DataLoader, TensorDataset

loader = DataLoader(TensorDataset(torch.randn(8, 4)), batch_size=4)
model = torch.nn.Linear(4, 1)
with torch.inference_mode():
    outputs = [model(x) for (x,) in loader]
