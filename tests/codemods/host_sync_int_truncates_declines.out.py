import torch

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = torch.nn.Linear(3, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
data = [torch.randn(4, 3) * 10 for _ in range(20)]
total = 0
for x in data:
    x = x.to(device)
    out = model(x).sum()
    opt.zero_grad()
    out.backward()
    opt.step()
    total += int(out)  # truncates each float: a sum on the device would not
print(total)
