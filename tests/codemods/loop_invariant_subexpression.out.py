import torch

torch.manual_seed(0)
W = torch.randn(4, 4)
rows = []
n = 20
matmul_hoisted = torch.matmul(W, W.t())
for i in range(n):
    x = torch.full((4,), float(i))
    rows.append(x @ matmul_hoisted)
print(torch.stack(rows).sum().item())
