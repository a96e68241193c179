# twist: an integer tensor: the loop's sum stays int32, a vectorized sum promotes to int64
# expect: HARP401 unsafe "the tensor is not empty"
import torch

x = torch.arange(6, dtype=torch.int32)
total = 0
for i in range(len(x)):
    total += x[i] * 2
print(total, total.dtype)
