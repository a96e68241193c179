import torch

torch.manual_seed(0)

model = torch.nn.Linear(3, 1)
inputs = [torch.ones(2, 3) * i for i in range(4)]
best = None
for x in inputs:
    y = model(x)
    best = y if best is None else torch.maximum(best, y)
print(best.sum().item())
