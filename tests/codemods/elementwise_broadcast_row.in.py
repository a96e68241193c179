import torch

torch.manual_seed(0)
x = torch.randn(500, 8)
weight = torch.randn(8)
out = torch.zeros(500, 8)
# a per-feature scale, applied row by row
for i in range(len(x)):
    out[i] = torch.tanh(x[i] * weight + 0.1)
print(round(float(out.sum()), 4), tuple(out.shape))
