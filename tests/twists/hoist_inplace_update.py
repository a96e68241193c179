# twist: the input tensor is updated in place in the loop
import torch

w = torch.zeros(3)
for _ in range(40):
    e = torch.exp(w)
    print(f"{e.sum().item():.4f}")
    w.add_(1.0)
