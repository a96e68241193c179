# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# Noisy layers: noise drawn on the CPU (`torch.randn` in a helper, shaped by tensor
# methods and an outer product) and copied into a module's buffers by `copy_`, through
# `NoisyDQN.reset_noise` -> `NoisyLinear.reset_noise` on every training step: the weight
# noise, a matrix (an outer product), is weight-sized (default level); the bias noise, a
# vector of the layer's width, is small (aggressive). A model rebound by
# `net = net.cuda()` keeps its class. Near misses: the same reset run only from
# `__init__`; a plain attribute (not a buffer: it stays on the CPU); noise drawn once,
# before the loop.
import torch
import torch.nn as nn
import torch.nn.functional as F

USE_CUDA = torch.cuda.is_available()


class NoisyLinear(nn.Module):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.n_in, self.n_out = n_in, n_out
        self.weight_mu = nn.Parameter(torch.FloatTensor(n_out, n_in))
        self.register_buffer("weight_epsilon", torch.FloatTensor(n_out, n_in))
        self.bias_epsilon = nn.Parameter(torch.zeros(n_out), requires_grad=False)
        self.scratch = torch.zeros(n_out)
        self.reset_noise()
        self.reset_once()

    def forward(self, x):
        return F.linear(x, self.weight_mu + self.weight_epsilon, self.bias_epsilon)

    def reset_noise(self):
        eps_in = self._scale_noise(self.n_in)
        eps_out = self._scale_noise(self.n_out)
        self.weight_epsilon.copy_(eps_out.ger(eps_in))  # expected-hint HARP205
        self.bias_epsilon.copy_(self._scale_noise(self.n_out))  # expected-hint@aggressive HARP205
        self.scratch.copy_(torch.randn(self.n_out))

    def reset_once(self):
        self.weight_epsilon.copy_(torch.randn(self.n_out, self.n_in))

    def _scale_noise(self, size):
        x = torch.randn(size)
        x = x.sign().mul(x.abs().sqrt())
        return x


class NoisyDQN(nn.Module):
    def __init__(self):
        super().__init__()
        self.noisy1 = NoisyLinear(4, 64)
        self.noisy2 = NoisyLinear(64, 2)

    def forward(self, x):
        return self.noisy2(F.relu(self.noisy1(x)))

    def reset_noise(self):
        self.noisy1.reset_noise()
        self.noisy2.reset_noise()


model = NoisyDQN()
target = NoisyDQN()
if USE_CUDA:
    model = model.cuda()
    target = target.cuda()
opt = torch.optim.Adam(model.parameters())
fixed = torch.randn(64, 4)


def update(x):
    loss = (model(x) - target(x).detach()).pow(2).mean()  # expected-hint@aggressive HARP303
    opt.zero_grad()
    loss.backward()
    opt.step()
    model.reset_noise()
    target.reset_noise()


for step in range(100000):
    update(torch.randn(32, 4))
    model.noisy1.weight_epsilon.copy_(fixed)
