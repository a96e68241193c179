"""A PyTorch training loop with the host-code problems people write every day."""

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
torch.manual_seed(0)
features = torch.randn(256, 8)
labels = (features.sum(dim=1, keepdim=True) > 0).float()
loader = DataLoader(TensorDataset(features, labels), 32, True, pin_memory=device.type == "cuda")

model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1)).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
loss_fn = nn.BCEWithLogitsLoss()

for epoch in range(5):
    running, grad_norms = 0.0, 0.0
    for x, y in loader:
        x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        for p in model.parameters():
            grad_norms += p.grad.norm().item()
        optimizer.step()
        running += loss.item()
    print(f"epoch {epoch}: loss {running / len(loader):.4f}, "
          f"gradient norms {grad_norms / len(loader):.4f}")
