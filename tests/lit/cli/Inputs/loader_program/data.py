import torch
from torchvision import datasets, transforms


def data_generator(root, batch_size):
    transform = transforms.Compose([transforms.ToTensor(), transforms.Normalize((0.1,), (0.3,))])
    train_set = datasets.MNIST(root=root, train=True, download=True, transform=transform)
    test_set = datasets.MNIST(root=root, train=False, download=True, transform=transform)
    train_loader = torch.utils.data.DataLoader(train_set, batch_size=batch_size)
    test_loader = torch.utils.data.DataLoader(test_set, batch_size=batch_size)
    return train_loader, test_loader
