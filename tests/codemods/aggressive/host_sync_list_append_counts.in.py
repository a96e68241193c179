import torch

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = torch.nn.Linear(4, 3).to(device)
batches = [(torch.randn(8, 4).to(device), torch.randint(0, 3, (8,)).to(device))
           for _ in range(30)]
correct = []  # integer counts: each stays a Python int
for x, y in batches:
    correct.append((model(x).argmax(1) == y).sum().item())
print(correct[:5], sum(correct), type(correct[0]).__name__)
skipped = []  # a loop that runs zero times leaves the list empty
for x, y in batches[:0]:
    skipped.append(model(x).sum().item())
print(skipped)
