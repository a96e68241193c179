# twist: the input is changed through a subscript in the loop
import torch

params = [torch.ones(3), torch.ones(3)]
for _ in range(40):
    norm = torch.linalg.norm(params[0])
    print(f"{norm.item():.4f}")
    params[0] *= 2
