# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# A GAN step that runs the generator twice on the same noise: once for the
# discriminator's step, whose backward runs through it and whose generator gradients the
# generator's zero_grad() clears, and again for the generator's step, with only the
# discriminator's optimizer stepping in between. Detaching the first output where the
# discriminator takes it lets the generator step reuse it.
# Near misses: a generator with batch norm (a second forward updates its running
# statistics), with an instance norm that tracks them, or with dropout; the generator's
# own optimizer stepping in between; the first output's gradients kept for the generator.
import torch
import torch.nn as nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(64, 128), nn.InstanceNorm1d(128), nn.ReLU(),
                                 nn.Linear(128, 784), nn.Tanh())

    def forward(self, z):
        return self.net(z)


def gan(G):
    D = nn.Sequential(nn.Linear(784, 128), nn.LeakyReLU(0.2), nn.Linear(128, 1),
                      nn.Sigmoid()).to(device)
    G = G.to(device)
    criterion = nn.BCELoss()
    d_opt = torch.optim.Adam(D.parameters(), lr=2e-4)
    g_opt = torch.optim.Adam(G.parameters(), lr=2e-4)
    real = torch.ones(100, 1, device=device)
    fake = torch.zeros(100, 1, device=device)
    for step in range(1000):
        images = torch.rand(100, 784, device=device)
        z = torch.randn(100, 64, device=device)
        fake_images = G(z)  # expected-hint HARP304
        d_loss = criterion(D(images), real) + criterion(D(fake_images), fake)
        d_opt.zero_grad()
        g_opt.zero_grad()
        d_loss.backward()
        d_opt.step()
        fake_images = G(z)  # expected-hint HARP302
        g_loss = criterion(D(fake_images), real)
        d_opt.zero_grad()
        g_opt.zero_grad()
        g_loss.backward()
        g_opt.step()


gan(Generator())

D = nn.Sequential(nn.Linear(784, 1), nn.Sigmoid()).to(device)
d_opt = torch.optim.Adam(D.parameters(), lr=2e-4)
criterion = nn.BCELoss()
real = torch.ones(100, 1, device=device)
G = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 784), nn.Tanh()).to(device)
g_opt = torch.optim.Adam(G.parameters(), lr=2e-4)
for step in range(1000):
    z = torch.randn(100, 64, device=device)
    out = G(z)  # expected-hint HARP304
    d_loss = criterion(D(out), real)
    g_opt.zero_grad()
    d_loss.backward()
    d_opt.step()
    out = G(z)  # expected-hint HARP302
    g_loss = criterion(D(out), real)
    g_opt.zero_grad()
    g_loss.backward()
    g_opt.step()

for norm in (nn.BatchNorm1d(128), nn.InstanceNorm1d(128, track_running_stats=True),
             nn.Dropout(0.3)):
    G = nn.Sequential(nn.Linear(64, 128), norm, nn.Linear(128, 784)).to(device)
    g_opt = torch.optim.Adam(G.parameters(), lr=2e-4)
    for step in range(1000):
        z = torch.randn(100, 64, device=device)
        out = G(z)  # expected-hint HARP304
        d_loss = criterion(D(out), real)
        g_opt.zero_grad()
        d_loss.backward()
        d_opt.step()
        out = G(z)
        g_loss = criterion(D(out), real)
        g_opt.zero_grad()
        g_loss.backward()
        g_opt.step()
BN = nn.Sequential(nn.Linear(64, 128), nn.BatchNorm1d(128), nn.Linear(128, 784)).to(device)
bn_opt = torch.optim.Adam(BN.parameters(), lr=2e-4)
for step in range(1000):
    z = torch.randn(100, 64, device=device)
    out = BN(z)  # expected-hint HARP304
    d_loss = criterion(D(out), real)
    bn_opt.zero_grad()
    d_loss.backward()
    d_opt.step()
    out = BN(z)
    g_loss = criterion(D(out), real)
    bn_opt.zero_grad()
    g_loss.backward()
    bn_opt.step()

G = nn.Sequential(nn.Linear(64, 784), nn.Tanh()).to(device)
g_opt = torch.optim.Adam(G.parameters(), lr=2e-4)
for step in range(1000):
    z = torch.randn(100, 64, device=device)
    out = G(z)
    g_opt.zero_grad()
    criterion(D(out), real).backward()
    g_opt.step()  # the generator itself changes in between
    out = G(z)
    g_opt.zero_grad()
    criterion(D(out), real).backward()
    g_opt.step()
    out = G(z)
    g_opt.zero_grad()
    criterion(D(out), real).backward()  # its gradients for G are kept: accumulated
    out = G(z)
    criterion(D(out), real).backward()
    g_opt.step()
