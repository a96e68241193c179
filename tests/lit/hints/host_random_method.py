# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# Methods called per step: `self.noise()` in a method's loop and `agent.act()` in a
# module-level loop run the method's statements on every iteration (facts across calls
# follow a method call to the class the receiver is an instance of).
import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
loader = DataLoader(TensorDataset(torch.randn(32, 4)), batch_size=8)  # expected-hint@aggressive HARP501


class Trainer:
    def __init__(self):
        self.generator = nn.Linear(8, 4).to(device)
        self.opt = torch.optim.Adam(self.generator.parameters())

    def noise(self, n):
        return torch.from_numpy(np.random.normal(0, 1, (n, 8))).float().to(device)  # expected-hint@aggressive HARP205

    def fit(self):
        for x, in loader:
            fake = self.generator(self.noise(x.size(0)))
            loss = ((fake - x.to(device)) ** 2).mean()
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()


class Sampler:
    def noise(self, n):
        # Near miss: a method of another class with the same name, called only periodically.
        return torch.from_numpy(np.random.normal(0, 1, (n, 8))).float().to(device)  # expected-hint@aggressive HARP205

    def run(self, model):
        for step in range(1000):
            if step % 100 == 0:
                model(self.noise(4))


class Agent:
    def __init__(self):
        self.net = nn.Linear(8, 2).to(device)

    def act(self):
        state = torch.from_numpy(np.random.rand(1, 8)).float().to(device)  # expected-hint@aggressive HARP205
        return self.net(state).argmax()

    def warmup(self):
        # Near miss: called once, outside any loop.
        return torch.tensor(np.random.rand(1, 8), device=device)


trainer = Trainer()
trainer.fit()
Sampler().run(trainer.generator)
agent = Agent()
agent.warmup()
for episode in range(500):
    agent.act()
