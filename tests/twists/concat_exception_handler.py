# twist: the concatenation loop is left by an exception and the handler reads the result
# expect: HARP402 declined "reaches a handler that reads `acc`"
import torch

torch.manual_seed(0)
acc = torch.zeros(0, 2)
try:
    for i in range(200):
        if i == 150:
            raise ValueError
        acc = torch.cat([acc, torch.randn(1, 2)])
except ValueError:
    print(tuple(acc.shape))
