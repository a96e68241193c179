# twist: thousands of float32 values summed: a Python float (float64) keeps precision a
# float32 tensor loses
# expect: HARP201 fixed
# expect: HARP303 fixed
import torch

model = torch.nn.Identity()
total = 0.0
for v in torch.full((20000, 1), 0.1):
    total += model(v).sum().item()
print(f"{total:.6f}")
