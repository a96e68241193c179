# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# An agent's forward on every environment step whose outputs end on the host: what
# no_grad saves is autograd's recording of one forward, a few percent of a step, so the
# hint is at the aggressive level (the default level stays silent: missing_no_grad_values.py).
import torch
from torch import nn


class Actor(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 1)

    def forward(self, x):
        return torch.tanh(self.fc(x))


def main(env, memory):
    mu = Actor()
    optimizer = torch.optim.Adam(mu.parameters())
    for episode in range(1000):
        s, done = env.reset(), False
        while not done:
            a = mu(torch.from_numpy(s).float())  # expected-hint@aggressive HARP303
            s, r, done, _ = env.step([a.item()])  # expected-hint@aggressive HARP201
            memory.put((s, r))
        loss = mu(memory.sample()).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
