# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# A loop that reads a device tensor's elements on the host, one per iteration (`.item()`,
# `int()`, an index or a slice bound): a wait on the device each. Found through the
# methods and module calls that run it from the training loop, four calls deep, and with
# the tensor's origin followed through returns, parameters and loop-carried locals.
import torch
import torch.nn.functional as F
from torch import nn


class Retina:
    def __init__(self, size):
        self.size = size

    def denormalize(self, n, coords):
        return (0.5 * ((coords + 1.0) * n)).long()

    def extract(self, x, loc):
        B, C, H, W = x.shape
        start = self.denormalize(H, loc)
        end = start + self.size
        x = F.pad(x, (self.size, self.size, self.size, self.size))
        patches = []
        for i in range(B):  # expected-hint HARP401
            patches.append(x[i, :, start[i, 1]:end[i, 1], start[i, 0]:end[i, 0]])
        return torch.stack(patches)

    def foveate(self, x, loc):
        return self.extract(x, loc).flatten(1)


class Glimpse(nn.Module):
    def __init__(self):
        super().__init__()
        self.retina = Retina(4)
        self.fc = nn.Linear(4 * 8 * 8, 16)

    def forward(self, x, loc):
        return self.fc(self.retina.foveate(x, loc))


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.glimpse = Glimpse()
        self.where = nn.Linear(16, 2)

    def forward(self, x, loc):
        g = self.glimpse(x, loc)
        return g, torch.tanh(self.where(g))


def first_location(n, device):
    return torch.rand(n, 2, device=device) * 2 - 1


device = "cuda" if torch.cuda.is_available() else "cpu"
model = Attention().to(device)
opt = torch.optim.Adam(model.parameters())
def scores_of(values):
    best = []
    for i in range(len(values)):  # expected-hint HARP401
        best.append(values[i].item() * 2)
    return best


x = torch.randn(64, 4, 28, 28).to(device)
for step in range(100):
    loc = first_location(64, device)
    for t in range(6):
        g, loc = model(x, loc)
    loss = g.pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    shown = scores_of(loc[:, 0])
    # one wait per element of a tensor the step made: `.tolist()` once
    actions = [a.item() for a in g.argmax(1)]  # expected-hint HARP401
    # an enumerated tensor: the index reads another tensor's row, the element itself too
    tracked = {}
    for i, li in enumerate(loc.argmax(1)):  # expected-hint HARP401
        tracked[i] = (g[i, 0].item(), li.item())

# Near misses.
# An evaluation once an epoch, outside the training steps: reported only at the
# aggressive level.
for epoch in range(10):
    with torch.no_grad():
        preds = model(x, first_location(64, device))[1]
    labels = [p.item() for p in preds.argmax(1)]  # expected-hint@aggressive HARP401

# The elements are read once, after one `.tolist()`: a single wait.
def read_once(values):
    values = values.tolist()
    return [v * 2 for v in values]


# A tensor a factory made on the host waits for nothing (nanoGPT's batch offsets).
data = list(range(1000))
for step in range(100):
    ix = torch.randint(900, (12,))
    rows = [data[i:i + 8] for i in ix]

# Python numbers as slice bounds: no tensor read.
bounds = [(0, 4), (4, 8)]
for lo, hi in bounds:
    piece = x[:, :, lo:hi]

# The element stays a tensor: no read on the host.
pieces = []
for i in range(x.shape[0]):
    pieces.append(x[i])

# Enumerating a Python list: its elements are not a tensor's.
names = ["a", "b"]
for i, name in enumerate(names):
    print(i, name, len(name))

# Chunks of a tensor (a minibatch of indices from `split`), or the rows of a matrix, used
# as an index: the device gathers, Python reads no number.
gpu = torch.device("cuda")
inputs = torch.randn(1024, 4, 28, 28, device=gpu)
for epoch in range(10):
    for chunk in torch.randperm(1024, device=gpu).split(64):
        g, _ = model(inputs[chunk], first_location(64, gpu))
        loss = g.pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    for pair in torch.zeros((100, 2), dtype=torch.long, device=gpu):
        g, _ = model(inputs[pair], first_location(2, gpu))
        loss = g.pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()

# A permutation made in host memory (no `device=`), its elements used as indices (one
# sample per step, as a per-example SGD does): each read converts a CPU tensor's element,
# with no device to wait for.
linear = nn.Linear(784, 10)
sgd = torch.optim.SGD(linear.parameters(), lr=0.1)
cpu_inputs = torch.randn(1024, 784)
cpu_targets = torch.randn(1024, 10)
for i in torch.randperm(len(cpu_inputs)):
    loss = (linear(cpu_inputs[i]) - cpu_targets[i]).pow(2).mean()
    sgd.zero_grad()
    loss.backward()
    sgd.step()
