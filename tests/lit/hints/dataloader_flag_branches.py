# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# One configuration flag picks the dataset and, further down, the loader: the `else` of
# the second `if` runs only where the first `if` built the folder dataset, whose examples
# are decoded one by one. Near misses: the in-memory branch; a flag bound twice (which
# branch ran is unknown); a flag a function rebinds through `global`.
import sys

import torch
from PIL import Image
from torch.utils.data import DataLoader, Dataset, TensorDataset


class Folder(Dataset):
    def __init__(self, files):
        self.files = files

    def __len__(self):
        return len(self.files)

    def __getitem__(self, i):
        return torch.tensor(list(Image.open(self.files[i]).getdata()), dtype=torch.float32)


IN_MEMORY = len(sys.argv) > 2
if IN_MEMORY:
    ds = TensorDataset(torch.randn(100, 3))
else:
    ds = Folder(["a.png"] * 100)

if not IN_MEMORY:
    loader = DataLoader(ds, batch_size=10)  # expected-hint HARP501
else:
    loader = DataLoader(ds, batch_size=10)  # expected-hint@aggressive HARP501

CHANGED = len(sys.argv) > 3
if CHANGED:
    ds2 = Folder(["a.png"] * 100)
else:
    ds2 = TensorDataset(torch.randn(100, 3))
CHANGED = not CHANGED
if CHANGED:
    loader2 = DataLoader(ds2, batch_size=10)  # expected-hint@aggressive HARP501

REBOUND = len(sys.argv) > 4


def flip():
    global REBOUND
    REBOUND = not REBOUND


if REBOUND:
    ds3 = TensorDataset(torch.randn(100, 3))
else:
    ds3 = Folder(["a.png"] * 100)
flip()
if REBOUND:
    loader3 = DataLoader(ds3, batch_size=10)  # expected-hint@aggressive HARP501

model = torch.nn.Linear(3, 1).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for batches in (loader, loader2, loader3):
    for x in batches:
        loss = model(x.cuda()).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
