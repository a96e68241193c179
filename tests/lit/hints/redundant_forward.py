# RUN: %check-hints %s
# HARP302 for a model of the program called twice on the same input in one step (an
# actor-critic's policy and value heads read from two forwards): when its layers are
# deterministic and nothing between the calls changes the model or the input, the second
# forward and its share of the backward repeat work. Near misses: dropout or batch norm in
# the model (a layer or `F.dropout`, a torchvision model, a module handed in), noise drawn
# in its forward, an optimizer step or a backward in between, the input rebound in
# between, two calls in different branches, an evaluation loop.
import torch
import torchvision
from torch import nn


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.base = nn.Sequential(nn.Linear(4, 64), nn.ReLU())
        self.policy = nn.Linear(64, 2)
        self.value = nn.Linear(64, 1)

    def forward(self, x):
        h = self.base(x)
        return self.policy(h), self.value(h)


class WithDropout(ActorCritic):
    def __init__(self):
        super().__init__()
        self.base = nn.Sequential(nn.Linear(4, 64), nn.Dropout(0.1), nn.ReLU())


class WithBatchNorm(ActorCritic):
    def __init__(self):
        super().__init__()
        self.base = nn.Sequential(nn.Linear(4, 64), nn.BatchNorm1d(64), nn.ReLU())


class FunctionalDropout(nn.Module):
    def __init__(self):
        super().__init__()
        self.base = nn.Sequential(nn.Linear(4, 64), nn.ReLU())
        self.policy = nn.Linear(64, 2)
        self.value = nn.Linear(64, 1)

    def forward(self, x):
        h = nn.functional.dropout(self.base(x), 0.1, self.training)
        return self.policy(h), self.value(h)


class Noisy(nn.Module):
    def __init__(self):
        super().__init__()
        self.base = nn.Sequential(nn.Linear(4, 64), nn.ReLU())
        self.policy = nn.Linear(64, 2)
        self.value = nn.Linear(64, 1)

    def forward(self, x):
        h = self.base(x + 0.1 * torch.randn_like(x))
        return self.policy(h), self.value(h)


class Pretrained(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = torchvision.models.resnet18()  # batch norm inside

    def forward(self, x):
        return self.backbone(x), self.backbone(x)


class Wrapped(nn.Module):
    def __init__(self, encoder):
        super().__init__()
        self.encoder = encoder  # handed in: whatever it computes
        self.head = nn.Linear(64, 1)

    def forward(self, x):
        h = self.head(self.encoder(x))
        return h, h


device = torch.device("cuda")
net = ActorCritic().to(device)
dropout, batchnorm, noisy = WithDropout().to(device), WithBatchNorm().to(device), Noisy().to(device)
functional = FunctionalDropout().to(device)
pretrained = Pretrained().to(device)
wrapped = Wrapped(nn.Sequential(nn.Linear(4, 64), nn.Dropout(0.5))).to(device)
opt = torch.optim.Adam([p for m in (net, dropout, batchnorm, noisy, functional, pretrained, wrapped)
                        for p in m.parameters()])
s = torch.randn(1024, 4, device=device)
target = torch.randn(1024, 1, device=device)

for epoch in range(10):
    perm = torch.randperm(1024, device=device)
    for start in range(0, 1024, 64):
        index = perm[start:start + 64]
        logits = net(s[index])[0]
        ratio = torch.softmax(logits, 1)[:, 0]
        value = net(s[index])[1]  # expected-hint HARP302
        loss = -ratio.mean() + (value - target[index]).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()

for epoch in range(10):
    perm = torch.randperm(1024, device=device)
    for start in range(0, 1024, 64):
        index = perm[start:start + 64]
        logits = dropout(s[index])[0]  # not deterministic: near misses
        value = dropout(s[index])[1]
        logits = batchnorm(s[index])[0]
        value = batchnorm(s[index])[1]
        logits = noisy(s[index])[0]
        value = noisy(s[index])[1]
        logits = functional(s[index])[0]
        value = functional(s[index])[1]
        logits = wrapped(s[index])[0]
        value = wrapped(s[index])[1]
        images = s[index].reshape(-1, 1, 2, 2)
        logits = pretrained(images)[0]
        value = pretrained(images)[1]
        loss = -logits.mean() + value.pow(2).mean()
        loss.backward()
        logits = net(s[index])[0]
        loss = -logits.mean()
        opt.zero_grad()
        loss.backward()
        opt.step()  # the model changes before the second call: near miss
        value = net(s[index])[1]
        x = s[index]
        logits = net(x)[0]
        x = x * 2  # the input rebound: near miss
        value = net(x)[1]
        x = s[index]
        logits = net(x)[0]
        x.clamp_(-1.0, 1.0)  # the input changed in place: near miss
        value = net(x)[1]
        if epoch % 2:
            logits = net(x)[0]
        else:
            logits = net(x)[1]  # another branch: near miss
        loss = logits.mean() + value.mean()
        opt.zero_grad()
        loss.backward()
        opt.step()

with torch.no_grad():  # evaluation, once: near miss
    for start in range(0, 1024, 64):
        index = torch.arange(start, start + 64, device=device)
        print(net(s[index])[0].sum(), net(s[index])[1].sum())


class TwinAgent:
    """The models are made in one statement (`self.target, self.online = Net(), Net()`):
    each attribute still holds its own class's instance."""

    def __init__(self):
        self.target_net, self.act_net = ActorCritic(), ActorCritic()
        self.opt = torch.optim.Adam(self.act_net.parameters())

    def update(self, state, target_v):
        for index in torch.randperm(1024, device=device).split(64):
            v = self.act_net(state)[0][index]
            loss = (self.act_net(state)[0][index] - target_v[index]).pow(2).mean()  # expected-hint HARP302
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
