# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
import copy

import torch
from torch.utils.data import DataLoader, Subset, TensorDataset
from torchvision import datasets, transforms

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
tf = transforms.Compose([transforms.ToTensor(), transforms.Normalize((0.5,), (0.5,))])
mnist = datasets.MNIST("data", train=True, download=True, transform=tf)

# Images decoded and transformed per example, in the training process, for a GPU.
train_loader = DataLoader(mnist, batch_size=64, shuffle=True)  # expected-hint HARP501
subset = DataLoader(Subset(mnist, range(1000)), batch_size=64)  # expected-hint HARP501
folder = DataLoader(datasets.ImageFolder("imgs", transform=tf), batch_size=8)  # expected-hint HARP501
good = DataLoader(mnist, batch_size=64, num_workers=4, pin_memory=True)
# Split for validation, and a copy of a part given other transforms: each part loads as
# the dataset it was split from.
train_part, valid_part = torch.utils.data.random_split(mnist, [50000, 10000])
valid_part = copy.deepcopy(valid_part)
split = DataLoader(train_part, batch_size=64, shuffle=True)  # expected-hint HARP501
copied = DataLoader(valid_part, batch_size=64)  # expected-hint HARP501

# Near misses: tensors in memory; `**kwargs` that may set both; workers set, only pinned
# memory missing; num_workers=0 chosen explicitly; a dataset harp cannot see into.
ds = TensorDataset(torch.randn(64, 4), torch.randn(64, 1))
in_memory = DataLoader(ds, batch_size=8)  # expected-hint@aggressive HARP501
kwargs = {"num_workers": 1, "pin_memory": True} if torch.cuda.is_available() else {}
from_kwargs = DataLoader(mnist, batch_size=8, **kwargs)  # expected-hint@aggressive HARP501
pinned_only = DataLoader(mnist, batch_size=8, num_workers=2)  # expected-hint@aggressive HARP501
explicit_zero = DataLoader(mnist, batch_size=8, num_workers=0)  # expected-hint@aggressive HARP501
def make_loader(dataset):
    return DataLoader(dataset, batch_size=8)  # expected-hint@aggressive HARP501

model = torch.nn.Linear(784, 10).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
test_loader = DataLoader(datasets.MNIST("data", train=False, transform=tf), batch_size=1000)  # expected-hint@aggressive HARP501
unused = DataLoader(mnist, batch_size=64)  # expected-hint@aggressive HARP501


def evaluate(loader):
    # near miss: the test loader feeds only this evaluation pass (no backward, no step)
    correct = 0
    for x, y in loader:  # expected-hint@aggressive HARP303
        correct += int((model(x.view(-1, 784).to(device)).argmax(1) == y.to(device)).sum())  # expected-hint@aggressive HARP201
    return correct


for loader in (train_loader, subset, folder, split, copied):
    for x, y in loader:
        opt.zero_grad()
        out = model(x.view(-1, 784).to(device))
        torch.nn.functional.cross_entropy(out, y.to(device)).backward()
        opt.step()
print(evaluate(test_loader))


# A dataset class of the program whose `__getitem__` opens an image and applies the
# transform it was given (positionally): loading costs milliseconds per example.
from PIL import Image


class Pictures(torch.utils.data.Dataset):
    def __init__(self, paths, transform):
        self.paths, self.transform = paths, transform

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, index):
        return self.transform(Image.open(self.paths[index]))


pictures = DataLoader(Pictures(["a.png"] * 64, tf), batch_size=8, drop_last=True)  # expected-hint HARP501
for x in pictures:
    opt.zero_grad()
    model(x.view(-1, 784).to(device)).sum().backward()
    opt.step()
