import torch

torch.manual_seed(1)
features = torch.randn(500, 16)
weights = torch.randn(16, 4)
total = 0.0
total += torch.relu(features @ weights).sum(0)
print([round(v, 3) for v in total.tolist()])
