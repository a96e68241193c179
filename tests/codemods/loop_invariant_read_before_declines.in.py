import torch

torch.manual_seed(0)
W = torch.randn(3, 3)
scale = torch.ones(())
history = []
steps = 20
for step in range(steps):
    history.append(float(scale))
    scale = torch.norm(W)
print(history)
