# twist: the output aliases the input (a transposed view)
# expect: HARP401 declined "`out` is not bound once, to new memory"
import torch

x = torch.arange(9.0).reshape(3, 3)
out = x.t()
for i in range(len(x)):
    out[i] = x[i] * 2
print(x.tolist())
