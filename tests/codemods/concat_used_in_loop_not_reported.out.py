import torch

out = torch.zeros(0)
sizes = []
for i in range(3):
    out = torch.cat([out, torch.ones(2)])
    sizes.append(out.numel())
print(sizes)
