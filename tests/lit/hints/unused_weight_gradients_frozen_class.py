# RUN: %check-hints %s
# A loss network whose class turns its own parameters' gradients off when it is made
# (`param.requires_grad = False` over `self.parameters()` in `__init__`, as style transfer's
# VGG wrappers do) computes no weight gradients: nothing to report; nor does a perceptual
# loss whose `__init__` freezes the network it builds and keeps (`loss_network`'s
# parameters, then `self.loss_network = loss_network`, as SRGAN's GeneratorLoss). The
# same network without that loop computes a gradient for every weight on each backward.
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


class PerceptualLoss(nn.Module):
    def __init__(self):
        super().__init__()
        loss_network = nn.Sequential(nn.Conv2d(3, 64, 3), nn.ReLU()).eval()
        for param in loss_network.parameters():
            param.requires_grad = False
        self.loss_network = loss_network
        self.mse_loss = nn.MSELoss()

    def forward(self, out_images, target_images):
        return self.mse_loss(self.loss_network(out_images), self.loss_network(target_images))


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


def train_perceptual(loader, epochs=2):
    device = torch.device("cuda")
    generator = nn.Conv2d(3, 3, 3, padding=1).to(device)
    criterion = PerceptualLoss().to(device)
    optimizer = torch.optim.Adam(generator.parameters())
    for epoch in range(epochs):
        for x, target in loader:
            loss = criterion(generator(x.to(device)), target.to(device))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
