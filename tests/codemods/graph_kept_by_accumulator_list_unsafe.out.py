import torch

torch.manual_seed(0)
model = torch.nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(6)]
losses = []
step = 0
while step < 12:
    x, y = loader[step % len(loader)]
    opt.zero_grad()
    loss = torch.nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()
    losses.append(loss.detach())
    step += 1
print(round(torch.stack(losses).mean().item(), 5))
