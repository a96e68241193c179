import torch

torch.manual_seed(0)
model = torch.nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(6)]
avg_cost = 0  # over the whole run: every step's autograd nodes stay
for epoch in range(3):
    for x, y in loader:
        opt.zero_grad()
        cost = torch.nn.functional.mse_loss(model(x), y)
        cost.backward()
        opt.step()
        avg_cost += cost / len(loader)
    print(epoch, round(avg_cost.item(), 5), round(float(avg_cost), 5))
