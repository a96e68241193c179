# RUN: %check-hints %s
# RUN: not %check-hints --level aggressive %s 2>&1 | FileCheck %s
# A program that handles `.grad` itself (a hand-written SGD, a parameter server adding
# gradients in): zeroing in place may be what its update needs.
# Nothing here places a tensor on a GPU: the per-parameter update (HARP405) costs little.
# CHECK: zero_grad_manual.py:16: unexpected HARP405
# CHECK: zero_grad_manual.py:19: unexpected HARP502
import torch

model = torch.nn.Linear(4, 1)
lr = 0.1
steps = 100
for step in range(steps):
    model(torch.randn(2, 4)).sum().backward()
    with torch.no_grad():
        for p in model.parameters():
            p -= lr * p.grad
    for p in model.parameters():
        p.grad.zero_()
