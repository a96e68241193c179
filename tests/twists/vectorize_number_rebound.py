# twist: a "number" is rebound to a tensor before the loop
# expect: HARP401 fixed
import torch

x = torch.arange(4.0)
scale = 2.0
scale = torch.tensor([1.0, 2.0, 3.0, 4.0])
out = torch.zeros(4)
for i in range(len(x)):
    out[i] = x[i] * scale[i]
print(out.tolist())
