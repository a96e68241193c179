import torch

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = torch.nn.Linear(3, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
data = [torch.randn(4, 3, device=device) * 10 for _ in range(20)]  # on the device already
total = 0
for x in data:
    out = model(x).sum()
    opt.zero_grad()
    out.backward()
    opt.step()
    total += int(out)  # truncates each float: a sum on the device would not
print(total)
