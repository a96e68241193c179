# RUN: %check-hints %s
# RUN: not %check-hints --level aggressive %s 2>&1 | FileCheck --check-prefix=AGGRESSIVE %s
# Near misses, reported only at the aggressive level:
# AGGRESSIVE-DAG: dataloader_serial.py:26: unexpected HARP501
# AGGRESSIVE-DAG: dataloader_serial.py:29: unexpected HARP501
# AGGRESSIVE-DAG: dataloader_serial.py:28: unexpected HARP501
# AGGRESSIVE-DAG: dataloader_serial.py:30: unexpected HARP501
# AGGRESSIVE-DAG: dataloader_serial.py:32: unexpected HARP501
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

# Near misses: tensors in memory; `**kwargs` that may set both; workers set, only pinned
# memory missing; num_workers=0 chosen explicitly; a dataset harp cannot see into.
ds = TensorDataset(torch.randn(64, 4), torch.randn(64, 1))
in_memory = DataLoader(ds, batch_size=8)
kwargs = {"num_workers": 1, "pin_memory": True} if torch.cuda.is_available() else {}
from_kwargs = DataLoader(mnist, batch_size=8, **kwargs)
pinned_only = DataLoader(mnist, batch_size=8, num_workers=2)
explicit_zero = DataLoader(mnist, batch_size=8, num_workers=0)
def make_loader(dataset):
    return DataLoader(dataset, batch_size=8)

model = torch.nn.Linear(784, 10).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for x, y in good:
    opt.zero_grad()
    torch.nn.functional.cross_entropy(model(x.view(-1, 784).to(device)), y.to(device)).backward()
    opt.step()
