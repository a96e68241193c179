# RUN: %check-hints %s
# Near miss for a target network: an A3C worker's local network is set from the global one
# (`load_state_dict`) and no optimizer holds it, but its gradients are copied into the
# global network's (`global_param._grad = local_param.grad`) before the global optimizer
# steps: its backward is the training signal, not waste.
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        return self.fc(x)


class Worker:
    def __init__(self, global_network, global_optimizer):
        self.global_network = global_network
        self.global_optimizer = global_optimizer
        self.local_network = Net()

    def update(self, states, targets):
        loss = (self.local_network.forward(states) - targets).pow(2).mean()
        self.global_optimizer.zero_grad()
        loss.backward()
        for local_param, global_param in zip(self.local_network.parameters(),
                                             self.global_network.parameters()):
            global_param._grad = local_param.grad
        self.global_optimizer.step()
        self.local_network.load_state_dict(self.global_network.state_dict())


device = torch.device("cuda")
shared = Net()
worker = Worker(shared, torch.optim.Adam(shared.parameters()))
while True:
    worker.update(torch.randn(32, 4), torch.randn(32, 2))
