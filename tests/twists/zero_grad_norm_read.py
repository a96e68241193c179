# twist: the gradient's norm is read after zero_grad, before the next backward
import torch

torch.manual_seed(0)
model = torch.nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for x in [torch.randn(4, 2) for _ in range(2)]:
    opt.zero_grad(set_to_none=False)
    print(f"{model.weight.grad.norm().item():.4f}")
    model(x).sum().backward()
    opt.step()
