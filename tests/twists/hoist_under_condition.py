# twist: the invariant statement only runs under a condition that is never true here
# expect: HARP301 declined "it runs only under a condition in the loop"
import torch

torch.manual_seed(0)
table = torch.randn(4, 4)
for step in range(40):
    if step > 100:
        big = torch.linalg.inv(table - table)  # singular: raises when it runs
        print(big.sum())
    print(step)
