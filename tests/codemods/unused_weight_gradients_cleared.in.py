# A GAN trainer whose discriminator step backpropagates through the generator; the
# generator's own zero_grad() clears those gradients before its step. Detaching the
# generated batch for the discriminator gives the same weights.
import torch
from torch import nn, optim

torch.manual_seed(0)
BCE = nn.BCEWithLogitsLoss()


class Trainer:
    def __init__(self):
        self.G = nn.Sequential(nn.Linear(4, 8), nn.Tanh())
        self.D = nn.Linear(8, 1)
        self.G_optimizer = optim.Adam(self.G.parameters(), lr=0.01)
        self.D_optimizer = optim.SGD(self.D.parameters(), lr=0.1, momentum=0.9)

    def train(self, loader):
        for x_ in loader:
            z_ = torch.rand((x_.shape[0], 4))
            self.D_optimizer.zero_grad()
            D_real = self.D(x_)
            G_ = self.G(z_)
            D_fake = self.D(G_)
            D_loss = BCE(D_real, torch.ones_like(D_real)) + BCE(D_fake, torch.zeros_like(D_fake))
            D_loss.backward()
            self.D_optimizer.step()

            self.G_optimizer.zero_grad()
            G_ = self.G(z_)
            G_loss = BCE(self.D(G_), torch.ones_like(D_real))
            G_loss.backward()
            self.G_optimizer.step()
        return D_loss.item(), G_loss.item()


trainer = Trainer()
losses = trainer.train([torch.randn(16, 8) for _ in range(30)])
print(*(f"{v:.6f}" for v in losses))
print(*(f"{v:.6f}" for p in trainer.G.parameters() for v in p.detach().flatten()[:4]))
print(*(f"{v:.6f}" for p in trainer.D.parameters() for v in p.detach().flatten()[:4]))
