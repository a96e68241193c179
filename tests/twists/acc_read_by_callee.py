# twist: a function called in the loop reads the accumulator (a global)
# expect: HARP201 declined "`total` is read by a function"
# level: aggressive
import torch

history = []


def log_progress():
    history.append(total)


torch.manual_seed(0)
total = 0.0
for x in [torch.randn(3) for _ in range(4)]:
    total += x.sum().item()
    log_progress()
print([type(h).__name__ for h in history])
