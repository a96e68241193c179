# twist: an output of the loop is changed in place after it (an inference tensor cannot be)
# expect: HARP303 unsafe "--unsafe-fixes"
import torch

torch.manual_seed(0)
model = torch.nn.Linear(3, 2)
outs = []
for x in [torch.randn(3) for _ in range(2)]:
    outs.append(model(x))
outs[0].add_(1.0)
print(f"{outs[0].sum().item():.4f}")
