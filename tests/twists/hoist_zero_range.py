# twist: an invariant matmul that raises, in a `range` loop that runs zero times here
# expect: HARP301 fixed
import os

import torch

a, b = torch.randn(2, 3), torch.randn(4, 5)
steps = int(os.environ.get("STEPS", "0"))
for step in range(steps):
    c = a @ b
    print(c.sum() + step)
print("done")
