import torch

torch.manual_seed(0)
out = torch.empty(0, 3)
out_parts = [out]
for i in range(200):
    row = torch.randn(1, 3)
    out_parts.append(row)
out = torch.cat(out_parts, dim=0)
print(out.sum().item(), out.shape[0])
