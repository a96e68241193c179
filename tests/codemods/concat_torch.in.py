import torch

torch.manual_seed(0)
out = torch.empty(0, 3)
for i in range(200):
    row = torch.randn(1, 3)
    out = torch.cat([out, row], dim=0)
print(out.sum().item(), out.shape[0])
