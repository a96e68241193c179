# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# A script builds a loader, then splits the data set and binds the name to a loader of
# the training part before any loop: only that one feeds the training steps; the first
# is read by nothing.
import torch
from torchvision import datasets, transforms

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
tf = transforms.Compose([transforms.ToTensor(), transforms.Normalize((0.1307,), (0.3081,))])
train_db = datasets.MNIST("data", train=True, download=True, transform=tf)
train_loader = torch.utils.data.DataLoader(train_db, batch_size=200, shuffle=True)  # expected-hint@aggressive HARP501
print("train:", len(train_db))
train_db, val_db = torch.utils.data.random_split(train_db, [50000, 10000])
train_loader = torch.utils.data.DataLoader(train_db, batch_size=200, shuffle=True)  # expected-hint HARP501
model = torch.nn.Linear(784, 10).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(10):
    for x, y in train_loader:
        x, y = x.view(-1, 784).to(device), y.to(device)
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
