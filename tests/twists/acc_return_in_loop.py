# twist: the loop is left by `return` and the caller receives the accumulator
import torch


def first_losses(model, xs, limit):
    total = 0.0
    for i, x in enumerate(xs):
        if i == limit:
            return total
        total += model(x).pow(2).mean().item()
    return total


torch.manual_seed(0)
result = first_losses(torch.nn.Linear(4, 1), [torch.randn(2, 4) for _ in range(64)], 3)
print(type(result).__name__, f"{result:.4f}")
