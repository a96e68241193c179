import torch

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = torch.nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
data = [(torch.randn(8, 4).to(device), torch.randn(8, 1).to(device)) for _ in range(40)]
losses = []
for x, y in data:
    loss = (model(x) - y).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
    if len(losses) % 10 == 0:
        print(sum(losses[-10:]) / 10)  # read in the loop: its elements must stay numbers
print(len(losses), losses[0], losses[-1], sum(losses) / len(losses))
