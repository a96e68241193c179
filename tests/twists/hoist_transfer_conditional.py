# twist: `.cuda()` under `if torch.cuda.is_available()` inside the loop
# expect: HARP202 declined "it runs only under a condition in the loop"
import torch

torch.manual_seed(0)
table = torch.randn(3)
for step in range(40):
    t = table
    if torch.cuda.is_available():
        t = table.cuda()
    print(f"{(t * step).sum().item():.4f}")
