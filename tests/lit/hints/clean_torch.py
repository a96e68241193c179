# RUN: %check-hints %s
# A well-written PyTorch training and evaluation loop: no hint at the default level.
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

device = torch.device("cpu")
features, labels = torch.randn(256, 8), torch.randn(256, 1)
loader = DataLoader(TensorDataset(features, labels), batch_size=32, shuffle=True,
                    num_workers=2, pin_memory=True)
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1)).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_fn = nn.MSELoss()

for epoch in range(3):
    running = torch.zeros((), device=device)
    for x, y in loader:
        x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        running += loss.detach()
    print(f"epoch {epoch}: {running.item() / len(loader):.4f}")

model.eval()
with torch.inference_mode():
    predictions = [model(x.to(device)) for x, _ in loader]
result = torch.cat(predictions)
