# twist: the discriminator's optimizer also holds the generator's weights, so its step uses the gradients the discriminator's backward gives the generator
import itertools

import torch
from torch import nn, optim

torch.manual_seed(0)
G = nn.Sequential(nn.Linear(4, 8), nn.Tanh())
D = nn.Linear(8, 1)
d_optimizer = optim.SGD(itertools.chain(D.parameters(), G.parameters()), lr=0.1)
g_optimizer = optim.SGD(G.parameters(), lr=0.1)
for step in range(20):
    fake = G(torch.randn(16, 4))
    d_loss = D(fake).mean()
    d_optimizer.zero_grad()
    d_loss.backward()
    d_optimizer.step()
    g_optimizer.zero_grad()
    g_loss = -D(G(torch.randn(16, 4))).mean()
    g_loss.backward()
    g_optimizer.step()
    print(f"{d_loss.item():.5f} {g_loss.item():.5f}")
