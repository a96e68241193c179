# twist: uint8 values summed: a Python int keeps counting, a uint8 tensor wraps at 256
# expect: HARP201 declined "`total` starts as an int"
# expect: HARP202 fixed
# expect: HARP303 fixed
# level: aggressive
import torch

model = torch.nn.Identity()
total = 0
for _ in range(300):
    pixel = model(torch.tensor(200, dtype=torch.uint8))
    total += pixel.item()
print(total)
