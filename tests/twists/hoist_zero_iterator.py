# twist: an invariant matmul that raises, in a loop over an iterator that yields nothing
# (`if it:` would not test its emptiness, so there is no guard)
# expect: HARP301 unsafe "it needs the loop to run at least once"
import torch

a, b = torch.randn(2, 3), torch.randn(4, 5)
batches = iter([])
for batch in batches:
    c = a @ b
    print(c.sum() + batch)
print("done")
