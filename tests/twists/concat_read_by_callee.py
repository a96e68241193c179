# twist: a function called in the loop reads the concatenated tensor
# expect: HARP402 declined "`acc` is read by a function"
import torch

sizes = []


def record():
    sizes.append(tuple(acc.shape))


torch.manual_seed(0)
acc = torch.zeros(0, 2)
for i in range(200):
    acc = torch.cat([acc, torch.randn(1, 2)])
    record()
print(len(sizes), sizes[-1])
