# twist: gradients are accumulated into after zero_grad (`p.grad += g`)
import torch

torch.manual_seed(0)
model = torch.nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for _ in range(2):
    opt.zero_grad(set_to_none=False)
    for p in model.parameters():
        p.grad += torch.ones_like(p)
    opt.step()
print([round(v, 4) for v in model.weight.flatten().tolist()])
