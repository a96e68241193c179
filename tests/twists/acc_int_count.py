# twist: an integer count of correct predictions (an int64 tensor on the device is fine)
# expect: HARP201 fixed
# expect: HARP303 fixed
# level: aggressive
import torch

torch.manual_seed(0)
model = torch.nn.Linear(4, 3)
correct = 0
for _ in range(64):
    x, labels = torch.randn(8, 4), torch.randint(0, 3, (8,))
    correct += (model(x).argmax(1) == labels).sum().item()
print(correct)
