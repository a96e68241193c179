# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# A trainer that declares its models and optimizers as `None` in `__init__` and makes
# them in `build_model()` (MNIST-SVHN transfer): `self.g` is still the generator its
# forward calls and `self.d_opt` the optimizer that holds the discriminator alone. The
# discriminator's step on fakes backpropagates through the generator, whose gradients
# `reset_grad()` clears before anything uses them: `.detach()` the fake there. The loss
# is set on both branches of a test (`if self.use_labels:`), so what the next iteration
# reads before the test is the real loss, not the fake one. Near miss: the generator's
# own step, whose backward its optimizer uses.
import torch
import torch.nn.functional as F
from torch import nn


class Solver:
    def __init__(self, use_labels=False):
        self.g = None
        self.d = None
        self.g_opt = None
        self.d_opt = None
        self.use_labels = use_labels

    def build_model(self):
        self.g = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 8))
        self.d = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))
        self.g_opt = torch.optim.Adam(self.g.parameters())
        self.d_opt = torch.optim.Adam(self.d.parameters())

    def reset_grad(self):
        self.g_opt.zero_grad()
        self.d_opt.zero_grad()

    def train(self, steps):
        for step in range(steps):
            real = torch.randn(64, 8)
            z = torch.randn(64, 8)
            self.reset_grad()
            out = self.d(real)
            if self.use_labels:
                d_loss = F.binary_cross_entropy_with_logits(out, torch.ones_like(out))
            else:
                d_loss = torch.mean((out - 1) ** 2)
            d_real_loss = d_loss
            d_real_loss.backward()
            self.d_opt.step()

            self.reset_grad()
            fake = self.g(z)  # expected-hint HARP304
            out = self.d(fake)
            if self.use_labels:
                d_loss = F.binary_cross_entropy_with_logits(out, torch.zeros_like(out))
            else:
                d_loss = torch.mean(out ** 2)
            d_loss.backward()
            self.d_opt.step()

            self.reset_grad()
            fake = self.g(z)
            g_loss = torch.mean((self.d(fake) - 1) ** 2)
            g_loss.backward()
            self.g_opt.step()


solver = Solver()
solver.build_model()
solver.train(10000)
