# twist: momentum: a parameter with a zero grad keeps moving, one with None stops
# expect: HARP502 unsafe "every parameter gets a gradient on every step"
# level: aggressive
import torch

torch.manual_seed(0)
a, b = torch.nn.Linear(2, 1), torch.nn.Linear(2, 1)
opt = torch.optim.SGD([*a.parameters(), *b.parameters()], lr=0.1, momentum=0.9)
for step, x in enumerate([torch.randn(4, 2) for _ in range(3)]):
    opt.zero_grad(set_to_none=False)
    (a(x).sum() + (b(x).sum() if step == 0 else 0)).backward()
    opt.step()
print([round(v, 4) for v in b.weight.flatten().tolist()])
