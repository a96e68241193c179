# RUN: %check-hints %s
# RUN: not %check-hints --level aggressive %s 2>&1 | FileCheck --check-prefix=AGGRESSIVE %s
# RUN: %expect-exit 1 %harp analyze --no-config --level aggressive --select HARP201 --output-format full %s \
# RUN:   | FileCheck --check-prefix=FULL %s
# Each of them waits once a step (`step-share`); the near misses also name the wait the
# iteration makes anyway (`only-wait`), the positives do not.
# FULL: host_sync_blocking_copy.py:49:14: HARP201
# FULL: only-wait the `for x, y` loop (line 43) {{.*}} at `x.to(...)` (line 44)
# FULL: host_sync_blocking_copy.py:90:14: HARP201
# FULL: assumes: step-share the `for x, y` loop (line 83)
# FULL-NOT: only-wait
# FULL: host_sync_blocking_copy.py:98:14: HARP201
# A copy of a host tensor to the device without `non_blocking=True` waits for the work
# queued before it: a loop that makes one on every iteration waits for the device once an
# iteration anyway, and a `loss.item()` beside it adds little (aggressive level only).
# Positives: the copies are asynchronous, the loop copies nothing, the conversion is a dtype
# change on the host. Near misses: the loader's batch copied in the
# loop, in a helper the loop calls, a CPU-made draw copied with `.cuda()`, a `Variable`,
# another sync in a helper whose value the host needs, a PPO minibatch gathered from device
# tensors by NumPy indices. Positives also: a NumPy scalar index, `ones_like` of a device
# tensor moved with `.to(device)` (it is on the device already: nothing to wait for).
# AGGRESSIVE-DAG: host_sync_blocking_copy.py:49: unexpected HARP201
# AGGRESSIVE-DAG: host_sync_blocking_copy.py:62: unexpected HARP201
# AGGRESSIVE-DAG: host_sync_blocking_copy.py:72: unexpected HARP201
# AGGRESSIVE-DAG: host_sync_blocking_copy.py:81: unexpected HARP201
# AGGRESSIVE-DAG: host_sync_blocking_copy.py:125: unexpected HARP201
# AGGRESSIVE-DAG: host_sync_blocking_copy.py:144: unexpected HARP201
# (and the loaders without workers, HARP501, and the per-step draw, HARP205)
import torch
from torch import nn
from torch.autograd import Variable
from torch.utils.data import DataLoader, TensorDataset

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = TensorDataset(torch.randn(32, 4), torch.randn(32, 1))
loader = DataLoader(data, batch_size=8, pin_memory=True)
pinned = DataLoader(data, batch_size=8, pin_memory=True)
loss_fn = nn.MSELoss()

total = 0.0
for x, y in loader:  # the batch's blocking copy: near miss
    x, y = x.to(device), y.to(device)
    opt.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    opt.step()
    total += loss.item()


def train_step(x, y):
    x, y = x.cuda(), y.cuda()
    opt.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    opt.step()
    return loss


for x, y in loader:  # the copy in the helper the loop calls: near miss
    total += train_step(x, y).item()

for step in range(100):  # a fresh CPU draw copied each step: near miss
    z = torch.rand(8, 4)
    if torch.cuda.is_available():
        z = z.cuda()
    opt.zero_grad()
    loss = model(z).pow(2).mean()
    loss.backward()
    opt.step()
    total += loss.item()

for images, labels in loader:  # `Variable(images).cuda()`: near miss
    images = Variable(images).cuda()
    labels = Variable(labels).cuda()
    opt.zero_grad()
    loss = loss_fn(model(images), labels)
    loss.backward()
    opt.step()
    total += loss.item()

for x, y in pinned:
    x = x.to(device, non_blocking=True)
    y = y.to(device, non_blocking=True)
    opt.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    opt.step()
    total += loss.item()  # expected-hint@aggressive HARP201

features = torch.randn(32, 4, device=device)
for step in range(100):  # no copy at all: the sync is the only wait
    opt.zero_grad()
    loss = model(features).pow(2).mean()
    loss.backward()
    opt.step()
    total += loss.item()  # expected-hint@aggressive HARP201

for x, y in loader:
    x = x.to(torch.float32)  # a dtype conversion on the host, then an asynchronous copy
    x = x.to(device, non_blocking=True)
    opt.zero_grad()
    loss = model(x).pow(2).mean()
    loss.backward()
    opt.step()
    total += loss.item()  # expected-hint@aggressive HARP201


def count_correct(out, y):
    n_correct = (out.round() == y).sum().item()  # the host needs it: the words it counts
    return n_correct


words = 0
for x, y in pinned:  # another sync the host needs, in a helper: near miss
    x = x.to(device, non_blocking=True)
    y = y.to(device, non_blocking=True)
    opt.zero_grad()
    out = model(x)
    loss = loss_fn(out, y)
    loss.backward()
    opt.step()
    words += count_correct(out, y) + 1
    total += loss.item()

# A PPO-style update: minibatches gathered from device tensors by NumPy indices. PyTorch
# copies the indices to the device, a blocking copy on every minibatch: near miss.
import numpy as np  # noqa: E402

obs = torch.zeros(64, 4).to(device)
targets = torch.zeros_like(obs[:, :1])  # on obs's device: zeros_like makes nothing on the CPU
b_obs, b_targets = obs.reshape(-1, 4), targets.reshape(-1)
b_inds = np.arange(64)
clipped = []
for epoch in range(4):
    np.random.shuffle(b_inds)
    for start in range(0, 64, 16):
        mb_inds = b_inds[start:start + 16]
        opt.zero_grad()
        loss = (model(b_obs[mb_inds]).squeeze(1) - b_targets[mb_inds]).pow(2).mean()
        loss.backward()
        opt.step()
        clipped.append(loss.item())
# The same with one index a step, a NumPy scalar: basic indexing copies nothing.
for epoch in range(4):
    for i in range(64):
        row = b_inds[i]
        opt.zero_grad()
        loss = model(b_obs[row]).pow(2).mean()
        loss.backward()
        opt.step()
        clipped.append(loss.item())  # expected-hint@aggressive HARP201
# And `zeros_like` of a device tensor is no host tensor: `.to(device)` of it copies nothing.
for step in range(100):
    opt.zero_grad()
    out = model(b_obs)
    weight = torch.ones_like(out).to(device)
    loss = (out * weight).pow(2).mean()
    loss.backward()
    opt.step()
    total += loss.item()  # expected-hint@aggressive HARP201
print(total, words, clipped)
