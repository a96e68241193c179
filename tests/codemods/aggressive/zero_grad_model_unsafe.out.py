import torch

model = torch.nn.Linear(2, 1)
model.zero_grad()
model(torch.ones(1, 2)).sum().backward()
