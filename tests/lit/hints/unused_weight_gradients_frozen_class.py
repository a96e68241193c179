# RUN: %check-hints %s
# A loss network whose class turns its own parameters' gradients off when it is made
# (`param.requires_grad = False` over `self.parameters()` in `__init__`, as style transfer's
# VGG wrappers do) computes no weight gradients: nothing to report. The same network
# without that loop computes a gradient for every weight on each backward.
import torch
import torch.nn.functional as F
from torch import nn


class FrozenVgg(nn.Module):
    def __init__(self, requires_grad=False):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 64, 3), nn.ReLU(), nn.Conv2d(64, 64, 3))
        if not requires_grad:
            for param in self.parameters():
                param.requires_grad = False

    def forward(self, x):
        return self.features(x)


class Vgg(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 64, 3), nn.ReLU(), nn.Conv2d(64, 64, 3))

    def forward(self, x):
        return self.features(x)


def train_plain(loader, epochs=2):
    device = torch.device("cuda")
    transformer = nn.Conv2d(3, 3, 3, padding=1).to(device)
    loss_net = Vgg().to(device)
    optimizer = torch.optim.Adam(transformer.parameters())
    for epoch in range(epochs):
        for x, _ in loader:
            x = x.to(device)
            y = transformer(x)
            loss = F.mse_loss(loss_net(y), loss_net(x).detach())  # expected-hint HARP304
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


def train_frozen(loader, epochs=2):
    device = torch.device("cuda")
    transformer = nn.Conv2d(3, 3, 3, padding=1).to(device)
    loss_net = FrozenVgg().to(device)
    optimizer = torch.optim.Adam(transformer.parameters())
    for epoch in range(epochs):
        for x, _ in loader:
            x = x.to(device)
            y = transformer(x)
            loss = F.mse_loss(loss_net(y), loss_net(x).detach())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
