# RUN: %check-hints %s
# RUN: not %check-hints --level aggressive %s 2>&1 | FileCheck --check-prefix=AGGRESSIVE %s
# The once-per-epoch sync is reported only at the aggressive level.
# AGGRESSIVE: host_sync_torch.py:26: unexpected HARP201
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = DataLoader(TensorDataset(torch.randn(32, 4), torch.randn(32, 1)), batch_size=8)  # expected-hint HARP501
loss_fn = nn.MSELoss()

total = 0.0
history = []
for epoch in range(3):
    for x, y in loader:
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
        total += loss.item()  # expected-hint HARP201
        history.append(loss.detach().cpu())  # expected-hint HARP201
        if loss < 1e-3:  # expected-hint HARP201
            break
    print(f"epoch {epoch}: {float(loss)}")  # once per epoch: not a hot loop

# Outside any loop: one sync is fine.
final = loss.item()
preds = model(torch.randn(2, 4)).tolist()

def evaluate(batch):
    # Inside a function that no loop of this function runs: not reported here.
    return batch.sum().item()

step = 0
while step < 10:
    step += 1
    value = torch.randn(3).sum().numpy()  # expected-hint HARP201
