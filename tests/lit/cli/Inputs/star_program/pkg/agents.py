from .utils import *
from .cycle_a import *


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        return self.fc(tensor(x))


class Agent:
    def __init__(self):
        self.network, self.target = Net(), Net()
        self.opt = torch.optim.Adam(self.network.parameters())
        self.total_steps = 0

    def soft_update(self, target, src):
        for tp, p in zip(target.parameters(), src.parameters()):
            tp.detach_()
            tp.copy_(tp * 0.99 + p * 0.01)

    def step(self):
        loss = self.network([[0.0] * 4] * 8).sum()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.soft_update(self.target, self.network)
        self.total_steps += 1


class OtherAgent(Agent):
    def step(self):
        super().step()
        print(not_exported)
