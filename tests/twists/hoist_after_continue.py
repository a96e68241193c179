# twist: the invariant statement comes after a `continue` that skips it on every step
# expect: HARP301 declined "a `continue` before it can skip it"
import torch

a, b = torch.randn(2, 3), torch.randn(4, 5)
for step in range(40):
    if step >= 0:
        continue
    c = a @ b
    print(c)
print("done")
