import torch

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = torch.nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
data = [(torch.randn(8, 4).to(device), torch.randn(8, 1).to(device)) for _ in range(20)]
total = 0.0  # set once, before the epoch loop, and read after it
for epoch in range(3):
    for x, y in data:
        loss = torch.nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    print(epoch, total)  # a number again between epochs
print(total)
running = 0.0
for epoch in range(3):
    for x, y in data:
        loss = torch.nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        running += loss.item()
    print(epoch, running / len(data))
    running = 0.0  # a reset to a literal of the same kind keeps its type
