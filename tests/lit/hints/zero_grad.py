# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# A fill per gradient buffer costs microseconds: the hints are the aggressive level's.
import torch

model = torch.nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    opt.zero_grad(set_to_none=False)  # expected-hint@aggressive HARP502
    model.zero_grad(set_to_none=False)  # expected-hint@aggressive HARP502
    for p in model.parameters():
        if p.grad is not None:
            p.grad.zero_()  # expected-hint@aggressive HARP502
    model(torch.randn(2, 4)).sum().backward()
    opt.step()

# Near misses: the default, and an explicit set_to_none=True; zero_() of a non-grad tensor.
opt.zero_grad()
opt.zero_grad(set_to_none=True)
buffer = torch.ones(3)
buffer.zero_()
