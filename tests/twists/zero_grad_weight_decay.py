# twist: weight decay: a parameter whose grad becomes None is skipped instead of decayed
# expect: HARP502 declined "the program reads `.grad`"
# level: aggressive
import torch

torch.manual_seed(0)
used, unused = torch.nn.Linear(2, 1), torch.nn.Linear(2, 1)
opt = torch.optim.SGD([*used.parameters(), *unused.parameters()], lr=0.1, weight_decay=0.5)
for p in unused.parameters():
    p.grad = torch.zeros_like(p)
for x in [torch.randn(4, 2) for _ in range(3)]:
    opt.zero_grad(set_to_none=False)
    used(x).sum().backward()
    opt.step()
print([round(v, 4) for v in unused.weight.flatten().tolist()])
