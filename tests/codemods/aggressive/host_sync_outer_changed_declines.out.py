import torch

torch.manual_seed(0)
model = torch.nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
data = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(20)]
total = 0  # an int sum of float losses would become a float: Python's, not the device's
for epoch in range(3):
    for x, y in data:
        loss = torch.nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    total = total / 2  # changed between the epochs: its type is not known
print(total)
