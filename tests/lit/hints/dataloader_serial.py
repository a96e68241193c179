# RUN: %check-hints %s
import torch
from torch.utils.data import DataLoader, TensorDataset

ds = TensorDataset(torch.randn(64, 4), torch.randn(64, 1))
train_loader = DataLoader(ds, batch_size=8)  # expected-hint HARP501
shuffled = DataLoader(ds, batch_size=8, shuffle=True, num_workers=0)  # expected-hint HARP501
pinned_only = DataLoader(ds, batch_size=8, pin_memory=True)  # expected-hint HARP501
good = DataLoader(ds, batch_size=8, num_workers=2, pin_memory=True)

model = torch.nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for x, y in good:
    opt.zero_grad()
    torch.nn.functional.mse_loss(model(x), y).backward()
    opt.step()
