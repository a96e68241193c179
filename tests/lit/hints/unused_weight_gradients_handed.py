# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# A fixed loss network handed to the training function as an argument, bound twice where
# it is made (`vgg = VGGLoss()`, then `vgg = vgg.to(device)`), in a program whose optimizer
# is handed over the same way, built over `filter(lambda p: p.requires_grad,
# generator.parameters())` or restored from a checkpoint: each backward computes the loss
# network's weight gradients for nothing (HARP304). Near miss: the generator, which that
# optimizer holds (also restored from the checkpoint in the other branch).
import torch
from torch import nn


class VGGLoss(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 8, 3), nn.ReLU())

    def forward(self, x):
        return self.features(x)


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Conv2d(3, 3, 3, padding=1)

    def forward(self, x):
        return self.body(x)


def train(loader, generator, vgg, optimizer_g, device):
    for lr_imgs, hr_imgs in loader:
        sr = generator(lr_imgs.to(device))  # near miss: trained
        sr_features = vgg(sr)  # expected-hint HARP304
        hr_features = vgg(hr_imgs.to(device)).detach()  # expected-hint@aggressive HARP303
        loss = (sr_features - hr_features).pow(2).mean()
        optimizer_g.zero_grad()
        loss.backward()
        optimizer_g.step()


def main(checkpoint=None):
    device = torch.device("cuda")
    if checkpoint is None:
        generator = Generator()
        optimizer_g = torch.optim.Adam(
            params=filter(lambda p: p.requires_grad, generator.parameters()), lr=1e-4)
    else:
        checkpoint = torch.load(checkpoint)
        generator = checkpoint["generator"]
        optimizer_g = checkpoint["optimizer_g"]
    vgg = VGGLoss()
    vgg.eval()
    generator = generator.to(device)
    vgg = vgg.to(device)
    loader = [(torch.randn(4, 3, 16, 16), torch.randn(4, 3, 16, 16)) for _ in range(100)]
    for epoch in range(10):
        train(loader, generator=generator, vgg=vgg, optimizer_g=optimizer_g, device=device)


if __name__ == "__main__":
    main()
