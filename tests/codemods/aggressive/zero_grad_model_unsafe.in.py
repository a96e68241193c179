import torch

model = torch.nn.Linear(2, 1)
model.zero_grad(set_to_none=False, )
model(torch.ones(1, 2)).sum().backward()
