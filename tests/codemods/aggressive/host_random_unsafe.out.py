import numpy as np
import torch

cuda = torch.cuda.is_available()
Tensor = torch.cuda.FloatTensor if cuda else torch.FloatTensor
LongTensor = torch.cuda.LongTensor if cuda else torch.LongTensor
device = torch.device("cuda" if cuda else "cpu")
torch.manual_seed(0)
np.random.seed(0)
model = torch.nn.Linear(100, 1).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
batches = [torch.randn(4000, 100) for _ in range(3)]


def describe(t):
    """What the fix keeps: shape, dtype, device, range and the distribution's mean and
    spread to the nearest half (not the numbers themselves)."""
    print(tuple(t.shape), t.dtype, t.device.type, round(2 * float(t.float().mean())) / 2,
          round(2 * float(t.float().std())) / 2, float(t.min()) >= -10, float(t.max()) <= 10)


for x in batches:
    z = Tensor(x.shape[0], 100).normal_(0, 1)
    u = Tensor(x.shape[0], 100).uniform_(-1, 1)
    a = Tensor(x.shape[0], 1).uniform_()
    labels = LongTensor(x.shape[0]).random_(0, 10)
    w = torch.randn(x.shape[0], 100, device=device)
    loss = model(z * a + u + w).mean() + labels.float().mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    for t in (z, u, a, labels, w):
        describe(t)
