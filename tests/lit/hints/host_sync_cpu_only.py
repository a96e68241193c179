# RUN: %check-hints %s
# RUN: not %check-hints --level aggressive %s 2>&1 | FileCheck --check-prefix=AGGRESSIVE %s
# A program that never places a tensor on an accelerator: a sync costs little on the
# CPU, so it is reported only at the aggressive level.
# AGGRESSIVE: host_sync_cpu_only.py:19: unexpected HARP201
# AGGRESSIVE: host_sync_cpu_only.py:20: unexpected HARP201
import torch
from torch import nn

model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(100)]
total, seen = 0.0, []
for x, y in data:
    opt.zero_grad()
    loss = ((model(x) - y) ** 2).mean()
    loss.backward()
    opt.step()
    total += loss.item()
    seen.append(loss.detach().cpu())
    arrays = [loss.detach().numpy()]  # torch's .numpy() is never a sync
print(total, len(seen), arrays)
