import torch
from torch import nn

torch.manual_seed(0)
net = nn.Sequential(nn.Conv2d(3, 8, 3), nn.ReLU(), nn.Flatten(), nn.Linear(8 * 14 * 14, 10))
image = torch.rand(1, 3, 16, 16, requires_grad=True)
ascent = torch.optim.SGD([image], lr=0.1)
for i in range(20):
    ascent.zero_grad()
    score = net(image)[0, 3]
    (-score).backward()
    ascent.step()
print(round(float(score), 5), round(float(image.sum()), 4))
