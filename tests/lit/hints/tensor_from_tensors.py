# RUN: %check-hints %s
import numpy as np
import torch

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = torch.nn.Linear(4, 2).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = [(torch.randn(8, 4), torch.randn(8, 2)) for _ in range(100)]

history = []
for x, y in loader:
    out = model(x.to(device))
    mse = ((out - y.to(device)) ** 2).mean()
    mae = (out - y.to(device)).abs().mean()
    mse.backward()
    opt.step()
    opt.zero_grad()
    pair = torch.tensor([mse, mae])  # expected-hint HARP206
    history.append(np.array([out.max(), out.min()]))  # expected-hint HARP206
    spread = torch.FloatTensor((out.std(), out.mean()))  # expected-hint HARP206

# Near misses: numbers, not tensors; stacked; at a log interval; a handful of iterations.
for step, (x, y) in enumerate(loader):
    out = model(x.to(device))
    loss = ((out - y.to(device)) ** 2).mean()
    loss.backward()
    numbers = torch.tensor([1.0, 2.0, float(step)])
    stacked = torch.stack([loss, out.mean()])
    if step % 50 == 0:
        logged = torch.tensor([loss, out.mean()])
for trial in range(3):
    out = model(torch.randn(8, 4, device=device))
    summary = torch.tensor([out.mean(), out.std()])
