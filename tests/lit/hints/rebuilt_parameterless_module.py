# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# A module class of the program built on every step is HARP503's when it holds
# parameters (it forgets its weights each step); one that holds none, a Gram-matrix loss
# whose `forward` computes everything, costs a few microseconds to build and forgets
# nothing (near miss: blind readers judged it FALSE in a style-transfer closure). And a
# legacy typed constructor called with no data (`torch.FloatTensor()`, an empty tensor
# only used as a dtype for `type_as`) copies nothing to the device (near miss, HARP202).
import torch
from torch import nn


class GramMatrix(nn.Module):
    def forward(self, x):
        b, c, h, w = x.size()
        f = x.view(b, c, h * w)
        return torch.bmm(f, f.transpose(1, 2))


class GramMSELoss(nn.Module):
    def forward(self, x, target):
        return nn.MSELoss()(GramMatrix()(x), target)


class Head(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 16)

    def forward(self, x):
        return self.fc(x)


device = torch.device("cuda")
net = nn.Conv2d(3, 16, 3).to(device)
opt = torch.optim.Adam(net.parameters())
target = torch.randn(8, 16, 16, device=device)
for step in range(10000):
    labels = torch.randint(0, 10, (8,))
    labels = labels.type_as(torch.FloatTensor()).to(device)  # expected-hint@aggressive HARP205
    out = net(torch.randn(8, 3, 18, 18, device=device))
    loss = GramMSELoss().to(device)(out, target) + labels.mean()
    head = Head().to(device)  # expected-hint HARP503
    loss = loss + head(out.mean((2, 3))).sum()  # expected-hint HARP304
    opt.zero_grad()
    loss.backward()
    opt.step()
