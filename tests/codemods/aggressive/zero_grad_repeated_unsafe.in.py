# Two identical loops: the same fix, twice. One --apply fixes both (a second one has
# nothing left to do).
import torch

torch.manual_seed(0)
model = torch.nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
for x in [torch.randn(4, 2) for _ in range(3)]:
    opt.zero_grad(set_to_none=False)
    model(x).sum().backward()
    opt.step()
for x in [torch.randn(4, 2) for _ in range(3)]:
    opt.zero_grad(set_to_none=False)
    model(x).sum().backward()
    opt.step()
print([round(v, 4) for v in model.weight.flatten().tolist()])
