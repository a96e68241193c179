# twist: the loop is left by an exception and the accumulator is read in the handler
# expect: HARP201 declined "an exception leaving the loop reaches a handler that reads `total`"
# expect: HARP303 unsafe "a backward pass may still run through its outputs"
# level: aggressive
import torch

torch.manual_seed(0)
model = torch.nn.Linear(3, 1)
xs = [torch.randn(4, 3) for _ in range(5)]
total = 0.0
try:
    for i, x in enumerate(xs):
        if i == 3:
            raise RuntimeError("stop")
        total += model(x).pow(2).mean().item()
except RuntimeError:
    print(type(total).__name__, f"{total:.4f}")
