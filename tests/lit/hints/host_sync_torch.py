# RUN: %check-hints %s
# RUN: not %check-hints --level aggressive %s 2>&1 | FileCheck --check-prefix=AGGRESSIVE %s
# Near misses are reported only at the aggressive level, each for its own reason:
# AGGRESSIVE-DAG: host_sync_torch.py:22: unexpected HARP501
# AGGRESSIVE-DAG: host_sync_torch.py:55: unexpected HARP201
# AGGRESSIVE-DAG: host_sync_torch.py:57: unexpected HARP201
# AGGRESSIVE-DAG: host_sync_torch.py:60: unexpected HARP201
# AGGRESSIVE-DAG: host_sync_torch.py:62: unexpected HARP201
# AGGRESSIVE-DAG: host_sync_torch.py:65: unexpected HARP201
# AGGRESSIVE-DAG: host_sync_torch.py:68: unexpected HARP201
# AGGRESSIVE-DAG: host_sync_torch.py:70: unexpected HARP201
# AGGRESSIVE-DAG: host_sync_torch.py:75: unexpected HARP201
import math

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = DataLoader(TensorDataset(torch.randn(32, 4), torch.randn(32, 1)), batch_size=8)
loss_fn = nn.MSELoss()


def train_step(x, y):
    x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
    opt.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    opt.step()
    return loss


# One wait per step, for a value that is only accumulated: a few percent of a step at
# most (the overlap of host and device work), so the aggressive level's.
total = 0.0
history = []
for x, y in loader:
    loss = train_step(x, y)
    total += loss.item()  # expected-hint@aggressive HARP201
    history.append(loss.detach().cpu())  # expected-hint@aggressive HARP201

# Positive: a wait per parameter on every step.
norms = []
for x, y in loader:
    loss = train_step(x, y)
    for p in model.parameters():
        norms.append(p.grad.norm().item())  # expected-hint HARP201

# Near misses, one loop each.
for step, (x, y) in enumerate(loader):
    loss = train_step(x, y)
    if step % 100 == 0:
        total += loss.item()  # periodic: not every iteration
for x, y in loader:
    if train_step(x, y) < 1e-3:  # the branch needs the value on the host
        break
for step, (x, y) in enumerate(loader):
    print(f"step {step}: {train_step(x, y).item():.4f}")  # only printed: a logging cost
for x, y in loader:
    seen = train_step(x, y).item()
    print(seen)  # through a local, still only printed
for x, y in loader:
    label = int(train_step(x, y).item())  # used on the host (an index)
    print(["a", "b"][label % 2])
for p in model.parameters():
    history.append(p.detach().norm().cpu())  # a loop over parameters runs no model: not hot
for x, y in loader:
    total += 10 * math.log10(1 / train_step(x, y).item())  # host math (float64) on the way

for epoch in range(3):
    for x, y in loader:
        loss = train_step(x, y)
    history.append(loss.detach().cpu())  # once per epoch: not a hot loop

# Outside any loop: one sync is fine.
final = loss.item()
preds = model(torch.randn(2, 4).to(device)).tolist()

with torch.no_grad():
    outs = []
    for x, y in loader:
        outs.append(model(x.to(device)).cpu().numpy())  # an evaluation pass: aggressive
        total += torch.randint(0, 10, (1,)).item()  # a tensor made on the CPU: no wait


def evaluate(batch):
    # Inside a function that no loop of this function runs: not reported here.
    return batch.sum().item()
