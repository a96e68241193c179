import torch

model = torch.nn.Linear(2, 1)
model(torch.ones(1, 2)).sum().backward()
for p in model.parameters():
    p.grad.zero_()
