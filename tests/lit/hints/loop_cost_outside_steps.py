# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# A loop's own cost (quadratic growth, one op per element) matters where the loop runs
# often: in the training step, or as the main work of a program that does not train. In a
# program that trains, a loop the training loop never reaches, or reaches once an epoch
# (sampling, visualisation, a final decode), rests on a high-risk speculation.
import numpy as np
import torch
from torch import nn


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.attn = nn.Linear(8, 8)

    def forward(self, dec, enc):
        n_step = len(enc)  # the loop's bound, through a local
        scores = torch.zeros(n_step)
        for i in range(n_step):  # expected-hint HARP401
            scores[i] = torch.dot(dec, torch.tanh(enc[i]))
        return scores


def visualise(model, batches):
    """Once an epoch: the grid of samples, grown by concatenation."""
    grid = None
    for i, x in enumerate(batches):
        out = model(x, x.reshape(1, 8)).detach().numpy()
        if i == 0:
            grid = out
        else:
            grid = np.concatenate((grid, out), axis=0)  # expected-hint@aggressive HARP402
    return grid


def decode(scores):
    """Called once, after training."""
    picked = torch.zeros(len(scores))
    for i in range(len(scores)):  # expected-hint@aggressive HARP401
        picked[i] = torch.sigmoid(scores[i])
    return picked


model = Attention()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = [torch.randn(8) for _ in range(100)]
for epoch in range(10):
    for x in data:
        loss = model(x, torch.randn(5, 8)).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
    visualise(model, data)
print(decode(model(data[0], torch.randn(5, 8))))
