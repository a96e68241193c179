# twist: a helper the step calls reads the generator's gradients from the discriminator's backward before they are cleared
import torch
from torch import nn, optim

torch.manual_seed(0)
G = nn.Sequential(nn.Linear(4, 8), nn.Tanh())
D = nn.Linear(8, 1)
d_optimizer = optim.SGD(D.parameters(), lr=0.1)
g_optimizer = optim.SGD(G.parameters(), lr=0.1)


def log_generator_gradients(step):
    norm = sum(p.grad.norm() for p in G.parameters())
    print(f"step {step}: generator gradient from D {norm.item():.5f}")


for step in range(20):
    fake = G(torch.randn(16, 4))
    d_loss = D(fake).mean()
    d_optimizer.zero_grad()
    d_loss.backward()
    d_optimizer.step()
    log_generator_gradients(step)
    g_optimizer.zero_grad()
    g_loss = -D(G(torch.randn(16, 4))).mean()
    g_loss.backward()
    g_optimizer.step()
