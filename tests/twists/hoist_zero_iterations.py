# twist: an invariant matmul that raises, in a loop over an empty list: the hoisted code
# runs under `if batches:`, so it never runs either
# (a loop over a literal list is a handful of iterations: the aggressive level)
# level: aggressive
# expect: HARP301 fixed
import torch

a, b = torch.randn(2, 3), torch.randn(4, 5)
batches = []
for batch in batches:
    c = a @ b
    print(c.sum() + batch)
print("done")
