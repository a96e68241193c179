import torch
import torch.nn.functional as F

from data import data_generator

cuda = torch.cuda.is_available()
train_loader, test_loader = data_generator("./data", 64)
model = torch.nn.Linear(784, 10)
if cuda:
    model.cuda()
optimizer = torch.optim.Adam(model.parameters())


def train(epoch):
    model.train()
    for batch_idx, (data, target) in enumerate(train_loader):
        if cuda:
            data, target = data.cuda(), target.cuda()
        loss = F.cross_entropy(model(data.view(-1, 784)), target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if batch_idx % 100 == 0:
            print(epoch, batch_idx, len(train_loader), len(train_loader.dataset), loss.item())


def test():
    model.eval()
    with torch.no_grad():
        for data, target in test_loader:
            if cuda:
                data, target = data.cuda(), target.cuda()
            model(data.view(-1, 784))


for epoch in range(10):
    train(epoch)
    test()
