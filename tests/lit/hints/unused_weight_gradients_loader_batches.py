# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# pix2pix's discriminator step: the generator's input is a batch a DataLoader yields,
# sliced by a size read from the options and passed through the program's own augmentation
# helpers (one of which names a local `out`, as the script does); none of it carries a
# gradient towards a trained parameter. The discriminator's
# backward also runs back through the generator, whose gradients `G.zero_grad()` clears
# before its own step: `.detach()` the fake there. Near miss: an input that comes through a
# helper which runs a trained encoder (cutting the fake's gradient would cut the encoder's).
import argparse

import torch
from torch import nn
from torch.utils.data import DataLoader
from torchvision import datasets, transforms

parser = argparse.ArgumentParser()
parser.add_argument("--crop_size", type=int, default=24)
opt = parser.parse_args()
device = torch.device("cuda")
loader = DataLoader(datasets.ImageFolder("data", transforms.ToTensor()), batch_size=1,
                    num_workers=4, pin_memory=True)


def random_crop(images, size):
    out = torch.FloatTensor(images.size(0), images.size(1), size, size)
    for i in range(images.size(0)):
        out[i] = images[i, :, :size, :size]
    return out


G = nn.Sequential(nn.Conv2d(3, 3, 3, padding=1))
D = nn.Sequential(nn.Conv2d(6, 1, 3, padding=1))
E = nn.Sequential(nn.Conv2d(3, 3, 3, padding=1))
G_opt = torch.optim.Adam(G.parameters())
D_opt = torch.optim.Adam(D.parameters())
E_opt = torch.optim.Adam(E.parameters())
bce = nn.BCEWithLogitsLoss()


def encode(images):
    return E(images)


for epoch in range(200):
    for x_, _ in loader:
        D.zero_grad()
        half = x_.size(3) // 2
        y_ = x_[:, :, :, half:]
        x_ = x_[:, :, :, :half]
        x_ = random_crop(x_, opt.crop_size)
        y_ = random_crop(y_, opt.crop_size)
        x_, y_ = x_.to(device), y_.to(device)
        real = D(torch.cat([x_, y_], 1))
        fake = G(x_)  # expected-hint HARP304
        out = D(torch.cat([x_, fake], 1))
        d_loss = bce(real, torch.ones_like(real)) + bce(out, torch.zeros_like(out))
        d_loss.backward()
        D_opt.step()

        # Near miss: the generator's input comes from a trained encoder through a helper.
        D.zero_grad()
        coded = encode(x_)
        fake = G(coded)
        out = D(torch.cat([x_, fake], 1))
        bce(out, torch.zeros_like(out)).backward()
        D_opt.step()

        G.zero_grad()
        E.zero_grad()
        fake = G(encode(x_))
        out = D(torch.cat([x_, fake], 1))
        g_loss = bce(out, torch.ones_like(out)) + (fake - y_).abs().mean()
        g_loss.backward()
        G_opt.step()
        E_opt.step()
