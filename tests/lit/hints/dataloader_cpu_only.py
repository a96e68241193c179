# RUN: %check-hints %s
# RUN: not %check-hints --level aggressive %s 2>&1 | FileCheck %s
# A program that trains on the CPU only: pinned memory is useless there and workers
# compete with the training for the same cores, so the hint is aggressive-only.
# CHECK: dataloader_cpu_only.py:12: unexpected HARP501
import torch
from torch.utils.data import DataLoader
from torchvision import datasets, transforms

tf = transforms.Compose([transforms.ToTensor()])
mnist = datasets.MNIST("data", train=True, download=True, transform=tf)
loader = DataLoader(mnist, batch_size=64, shuffle=True)
model = torch.nn.Linear(784, 10)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for x, y in loader:
    opt.zero_grad()
    torch.nn.functional.cross_entropy(model(x.view(-1, 784)), y).backward()
    opt.step()
