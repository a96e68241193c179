import torch

torch.manual_seed(0)
model = torch.nn.Linear(3, 1)
data = [torch.randn(4, 3) for _ in range(5)]
running = 0.0
for x in data:
    loss = model(x).pow(2).mean()
    loss.backward()
    running += loss.detach().double()
running = running.item() if torch.is_tensor(running) else running
print(running / len(data))
