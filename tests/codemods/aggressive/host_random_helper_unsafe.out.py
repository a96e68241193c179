import numpy as np
import torch

cuda = torch.cuda.is_available()
Tensor = torch.cuda.FloatTensor if cuda else torch.FloatTensor
device = torch.device("cuda" if cuda else "cpu")
torch.manual_seed(0)
np.random.seed(0)
D = torch.nn.Linear(20, 1).to(device)
optimizer = torch.optim.SGD(D.parameters(), lr=0.01)


def gradient_penalty(real, fake):
    alpha = Tensor(real.size(0), 1).uniform_()
    jitter = Tensor(*real.shape).uniform_(-0.1, 0.1)
    mixed = (alpha * real + (1 - alpha) * fake + jitter).requires_grad_(True)
    grads = torch.autograd.grad(D(mixed).sum(), mixed, create_graph=True)[0]
    print(tuple(alpha.shape), alpha.dtype, float(alpha.min()) >= 0, float(alpha.max()) < 1,
          tuple(jitter.shape), float(jitter.abs().max()) <= 0.1)
    return ((grads.norm(2, dim=1) - 1) ** 2).mean()


for step in range(50):
    real, fake = torch.randn(512, 20, device=device), torch.zeros(512, 20, device=device)
    loss = D(real).mean() + 10 * gradient_penalty(real, fake)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
