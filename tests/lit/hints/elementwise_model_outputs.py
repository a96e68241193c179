# RUN: %check-hints %s
# What a model's call returns is taken from the program's own `forward`, across files of
# the program, before the frontend's speculation that a model returns a tensor: a place
# of the tuple that `forward` fills with a list (the per-layer outputs of an RNN) is no
# tensor, so a loop over it visits layers, not elements.
import torch
from torch import nn


class Stack(nn.Module):
    def __init__(self, layers=3):
        super().__init__()
        self.rnns = nn.ModuleList([nn.Linear(8, 8) for _ in range(layers)])

    def forward(self, x, return_h=False):
        outputs = []
        for rnn in self.rnns:
            x = torch.tanh(rnn(x))
            outputs.append(x)
        if return_h:
            return x, outputs, x.sum(1)
        return x, outputs  # another size: it cannot reach a three-name unpacking


class Twice(nn.Module):
    def forward(self, x):
        return x, x * 2


device = "cuda" if torch.cuda.is_available() else "cpu"
model = Stack().to(device)
twice = Twice().to(device)
opt = torch.optim.Adam(model.parameters())
x = torch.randn(64, 8, device=device)
for step in range(100):
    out, layer_outputs, sums = model(x, return_h=True)
    # a list of three layer outputs: a loop over layers, not a tensor's elements
    penalty = sum(h.pow(2).mean() for h in layer_outputs[-2:])
    loss = out.pow(2).mean() + penalty
    opt.zero_grad()
    loss.backward()
    opt.step()
    # near miss: the third place is a tensor the forward computes, and this reads its
    # elements on the host one at a time
    shown = [s.item() for s in sums]  # expected-hint HARP401
    # near miss: a model of the program that returns tensors in both places
    first, second = twice(x)
    doubled = [v.item() for v in second[:, 0]]  # expected-hint HARP401
