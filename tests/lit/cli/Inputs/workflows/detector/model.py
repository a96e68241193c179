import torch


class Detector(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.head = torch.nn.Linear(784, 4)

    def forward(self, x):
        return self.head(x)
