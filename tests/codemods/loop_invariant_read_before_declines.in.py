import torch

torch.manual_seed(0)
W = torch.randn(3, 3)
scale = torch.ones(())
history = []
for step in range(3):
    history.append(float(scale))
    scale = torch.norm(W)
print(history)
