# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# A model's forward that loops over a container of its blocks (`for layer in self.layers:
# x = layer(x)`) runs each block's `forward` on every step: the blocks are found from how
# the class fills the container (`nn.ModuleList([...])` of a comprehension, `nn.Sequential(A(),
# B())`, `self.layers.append(Block(...))`), so a per-call cost in a block's forward is
# seen on the training loop's every step.
import torch
from torch import nn

device = torch.device("cuda")


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(1024, 1024)

    def forward(self, x):
        pad = torch.zeros(1024, 1024).to(device)  # expected-hint HARP202
        return self.fc(x) + pad


class Gate(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(1024, 1024)

    def forward(self, x):
        bias = torch.ones(1024, 1024).cuda()  # expected-hint HARP202
        return self.fc(x) * bias


class Stage(nn.Module):
    def forward(self, x):
        shift = torch.ones(1024, 1024).cuda() * 0.5  # expected-hint HARP202
        return x + shift


class Net(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.blocks = nn.ModuleList([Block() for _ in range(n)])
        self.gates = nn.ModuleList()
        for _ in range(n):
            self.gates.append(Gate())
        self.stages = nn.Sequential(Stage(), Stage())

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        for i, gate in enumerate(self.gates):
            x = gate(x)
        for stage in self.stages:
            x = stage(x)
        return x


net = Net(4).to(device)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
for step in range(1000):
    loss = net(torch.randn(1024, 1024, device=device)).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
