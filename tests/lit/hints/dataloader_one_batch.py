# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# RUN: not %harp analyze --select HARP501 --output-format json %s | FileCheck %s
# A batch drawn once with `next(iter(loader))` (a fixed sample for plots) is not an
# iteration of the loader; `next(it)` in a loop is one batch per iteration. A helper that
# makes both the training and the test loader is one DataLoader: its training loop decides.
# The message names the training loop, and where it takes its batches (the `for` header,
# or the draw `next(batches)`) is a related place.
# CHECK: "message": "this DataLoader feeds the `for x, _` loop (line 53), a training loop, without
# CHECK: "related": [
# CHECK-NEXT: {
# CHECK-NEXT: "file": "{{.*}}dataloader_one_batch.py",
# CHECK-NEXT: "line": 53,
# CHECK: "message": "this DataLoader feeds the `for step` loop (line 58), a training loop, without
# CHECK: "related": [
# CHECK-NEXT: {
# CHECK-NEXT: "file": "{{.*}}dataloader_one_batch.py",
# CHECK-NEXT: "line": 59,
import torch
from torch.utils.data import DataLoader
from torchvision import datasets, transforms

device = torch.device("cuda")
tf = transforms.Compose([transforms.ToTensor()])
mnist = datasets.MNIST("data", train=True, download=True, transform=tf)


def data_load(path, batch_size):
    dset = datasets.ImageFolder(path, tf)
    return DataLoader(dset, batch_size=batch_size, shuffle=True)  # expected-hint HARP501


train_loader = data_load("data/train", 1)
test_loader = data_load("data/test", 5)
fixed = test_loader.__iter__().__next__()[0]
# Near miss: only one batch is ever drawn from it, at set-up.
samples = DataLoader(mnist, batch_size=16)  # expected-hint@aggressive HARP501
fixed_too = next(iter(samples))[0]
# Drawn once per iteration of a training loop: batches loaded serially with the steps.
stream = DataLoader(mnist, batch_size=64, shuffle=True)  # expected-hint HARP501
# Passed on by a generator (StyleGAN2's `sample_data`): where it is consumed decides.
endless = DataLoader(mnist, batch_size=64, shuffle=True)  # expected-hint HARP501


def sample_data(loader):
    while True:
        for batch in loader:
            yield batch


model = torch.nn.Linear(784, 10).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for x, _ in train_loader:
    opt.zero_grad()
    model(x.view(-1, 784).to(device)).sum().backward()
    opt.step()
batches = iter(stream)
for step in range(1000):
    x, y = next(batches)
    opt.zero_grad()
    torch.nn.functional.cross_entropy(model(x.view(-1, 784).to(device)), y.to(device)).backward()
    opt.step()
batches = sample_data(endless)
for step in range(1000):
    x, y = next(batches)
    opt.zero_grad()
    torch.nn.functional.cross_entropy(model(x.view(-1, 784).to(device)), y.to(device)).backward()
    opt.step()
print(fixed.shape, fixed_too.shape)

# Near miss: one batch drawn per epoch (for a plot of reconstructions), once through
# Python 2's `.next()`, around the epoch's loop of training steps.
train = DataLoader(mnist, batch_size=32, shuffle=True)  # expected-hint HARP501
shown = DataLoader(mnist, batch_size=32, shuffle=True)  # expected-hint@aggressive HARP501
shown_too = DataLoader(mnist, batch_size=32, shuffle=True)  # expected-hint@aggressive HARP501
for epoch in range(100):
    for x, y in train:
        opt.zero_grad()
        torch.nn.functional.cross_entropy(model(x.view(-1, 784).to(device)), y.to(device)).backward()
        opt.step()
    x, _ = iter(shown).next()
    x2, _ = next(iter(shown_too))
    with torch.no_grad():
        print(model(x.view(-1, 784).to(device)).sum(), model(x2.view(-1, 784).to(device)).sum())
