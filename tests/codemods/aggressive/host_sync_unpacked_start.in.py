import torch

torch.manual_seed(0)
model = torch.nn.Linear(4, 3)
data = [(torch.randn(8, 4), torch.randint(0, 3, (8,))) for _ in range(50)]
total, correct = 0., 0  # both set by one unpacking, as evaluation loops write it
for x, y in data:
    pred = model(x).argmax(1)
    correct += (pred == y).sum().item()
    total += y.size(0)
print(correct, total, correct / total)
