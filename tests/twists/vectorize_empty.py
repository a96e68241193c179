# twist: an empty tensor: the loop never runs and the total stays the int 0
# expect: HARP401 unsafe "the tensor is not empty"
import torch

x = torch.zeros(0)
total = 0
for i in range(len(x)):
    total += x[i] * 2
print(type(total).__name__, total)
