# `total += loss.data.cpu().numpy()` each step: summed on the device instead, converted
# once after the loop (opt-in: NumPy's promotion of the host sum and the type of the
# result, a 0-d array rather than a NumPy scalar, are not proved the same).
import torch

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = torch.nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = [torch.randn(8, 4, device=device) for _ in range(20)]
total = 0.0
for x in data:
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    total += loss.data.cpu().numpy()
print(total)
