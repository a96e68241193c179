# twist: a closure defined before the loop reads the accumulator during it
# expect: HARP201 declined "`total` is read by a function"
# level: aggressive
import torch

torch.manual_seed(0)
total = 0.0
seen = []
report = lambda: seen.append(isinstance(total, float))  # noqa: E731
for x in [torch.randn(3) for _ in range(4)]:
    total += x.sum().item()
    report()
print(seen)
