# RUN: %check-hints %s
# A greedy decoder whose forward a model runs through `self.head`, bound to a library
# module in one branch and to the decoder in the other, of a model wrapped in
# `nn.DataParallel`: calling the wrapper runs the model's forward, which runs the decoder's.
# Only an evaluation under `torch.no_grad()` runs it, so nothing is reported. Near miss: a
# second model with its own sampler, run the same way but with autograd on (reported at
# the loop that calls it, whose `inference_mode` covers the sampler's loop).
import torch
from torch import nn


class Greedy(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(5, 8)
        self.generator = nn.Linear(8, 5)

    def forward(self, h, steps):
        probs = torch.zeros(h.size(0), steps, 5)
        targets = torch.zeros(h.size(0), dtype=torch.long)
        for i in range(steps):
            h = h + self.embed(targets)
            probs_step = self.generator(h)
            probs[:, i, :] = probs_step
            _, targets = probs_step.max(1)
        return probs


class Model(nn.Module):
    def __init__(self, kind):
        super().__init__()
        if kind == "linear":
            self.head = nn.Linear(8, 8)
        else:
            self.head = Greedy()

    def forward(self, x, steps=25):
        return self.head(x, steps)


model = Model("greedy")
model = nn.DataParallel(model).to("cpu")


def evaluate(batches):
    with torch.no_grad():
        for x in batches:
            print(model(x).sum())


evaluate([torch.randn(4, 8) for _ in range(100)])


class Sampler(nn.Module):
    def __init__(self):
        super().__init__()
        self.generator = nn.Linear(8, 5)

    def forward(self, h, steps):
        picked = []
        for i in range(steps):
            h = h + self.generator(h).softmax(1).sum(1, keepdim=True)
            picked.append(h.argmax(1))
        return picked


class Other(nn.Module):
    def __init__(self):
        super().__init__()
        self.head = Sampler()

    def forward(self, x):
        return self.head(x, 10)


other = Other()
for x in [torch.randn(4, 8) for _ in range(100)]:  # expected-hint HARP303
    print(other(x))
