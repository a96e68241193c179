# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# Near misses: no HARP201 may be reported in this file, at any level.
import numpy as np
import torch

values = np.arange(10)
out = []
for v in values:
    out.append(v.tolist())  # numpy's tolist is host-to-host
    out.append(float(v))  # v is not a tensor

acc = torch.zeros(())
for i in range(10):
    acc += torch.randn(()).detach()  # stays on the device
result = acc.item()  # one sync, after the loop

for line in open(__file__):
    n = int(line[:1] or 0)  # int() of a string

device = torch.device("cuda")
targets = [torch.ones(4, device=device), None]
kept = 0
for target in targets * 50:
    target = target.cuda()
    if target is not None:  # an identity test is a Python bool: nothing is copied
        kept += 1
