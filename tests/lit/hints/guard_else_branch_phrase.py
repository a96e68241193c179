# RUN: %check-hints %s
# RUN: %expect-exit 1 %harp analyze --no-config --select HARP201 %s | FileCheck %s
# A loop in the `else` of a helper's test runs where the test fails: the message names the
# negated test, not the test itself (the RND clip helper, copied from torch's, that a PPO
# update calls on every minibatch).
# CHECK: where `not (norm_type == inf)` holds
# CHECK-NOT: where `norm_type == inf` holds
import torch
from torch import nn

inf = float("inf")
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def grad_norm(parameters, norm_type=2):
    parameters = [p for p in parameters if p.grad is not None]
    norm_type = float(norm_type)
    if norm_type == inf:
        total = max(p.grad.data.abs().max() for p in parameters)
    else:
        total = 0
        for p in parameters:
            norm = p.grad.data.norm(norm_type)
            total += norm.item() ** norm_type  # expected-hint HARP201
        total = total ** (1.0 / norm_type)
    return total


model = nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 2)).to(device)
opt = torch.optim.Adam(model.parameters())
for step in range(10000):
    loss = model(torch.randn(32, 8, device=device)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    grad_norm(model.parameters())
    opt.step()
