import torch

device = torch.device("cuda")
train_points = torch.randn(50000, 784)
queries = torch.randn(1000, 784)
for q in queries:
    reference = train_points.to(device)
    nearest = (reference - q.to(device)).norm(dim=1).argmin()
