# twist: the loop's outputs are used for a backward pass after the loop
# expect: HARP303 unsafe "--unsafe-fixes"
import torch

torch.manual_seed(0)
model = torch.nn.Linear(3, 1)
preds = []
for x in [torch.randn(3) for _ in range(2)]:
    preds.append(model(x))
torch.stack(preds).sum().backward()
print(f"{model.weight.grad.sum().item():.4f}")
