# twist: the total starts as the int 0 but sums float losses
# expect: HARP201 declined "`total` starts as an int"
# expect: HARP303 fixed
# level: aggressive
import torch

torch.manual_seed(0)
model = torch.nn.Linear(3, 1)
total = 0
for x in [torch.randn(4, 3) for _ in range(200)]:
    total += model(x).pow(2).mean().item()
print(f"{total:.6f}")
