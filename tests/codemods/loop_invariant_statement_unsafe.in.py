import torch

torch.manual_seed(0)
W = torch.randn(4, 4)
xs = torch.randn(50, 4)
total = torch.zeros(())
for x in xs:
    scale = torch.norm(W)
    total = total + (x / scale).sum()
print(total.item())
