# twist: the loop's outputs, appended to a list, are used for a backward pass after the
# loop: the graph the loop records is needed, so there is no HARP303 (it was reported, as
# an unsafe fix, before list appends counted as what the loop computes)
import torch

torch.manual_seed(0)
model = torch.nn.Linear(3, 1)
preds = []
for x in [torch.randn(3) for _ in range(2)]:
    preds.append(model(x))
torch.stack(preds).sum().backward()
print(f"{model.weight.grad.sum().item():.4f}")
