import torch

model = torch.nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    opt.zero_grad()  # keep this comment
    model(torch.ones(1, 2)).sum().backward()
    opt.step()
