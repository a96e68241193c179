# RUN: %check-hints %s
# Near misses: no HARP201 may be reported in this file.
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
