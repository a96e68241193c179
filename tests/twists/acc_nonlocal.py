# twist: the accumulator is a `nonlocal` read by a sibling function during the loop
# expect: HARP201 declined "`total` is read by a function"
# level: aggressive
import torch


def run(xs):
    total = 0.0
    kinds = []

    def check():
        kinds.append(type(total).__name__)

    for x in xs:
        total += x.sum().item()
        check()
    return total, kinds


torch.manual_seed(0)
total, kinds = run([torch.randn(3) for _ in range(3)])
print(f"{total:.4f}", kinds)
