import torch

torch.manual_seed(0)
W = torch.randn(4, 4)
xs = torch.randn(50, 4)
total = torch.zeros(())
scale = torch.norm(W)
for x in xs:
    total = total + (x / scale).sum()
print(total.item())
