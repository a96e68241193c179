# twist: random ops under a seed: moving one changes the seeded sequence
# expect: HARP301 fixed
import torch

torch.manual_seed(0)
base = torch.ones(3)
for _ in range(40):
    noise = torch.randn(3)
    scaled = torch.exp(base)
    print([round(v, 4) for v in (noise + scaled).tolist()])
