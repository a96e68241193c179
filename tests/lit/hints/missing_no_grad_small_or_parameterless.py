# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# What autograd records depends on what the forward holds and how often it runs: a module
# with no parameters (an element-wise `forward`) records nothing from inputs that do not
# require grad, and a loop over a literal of five elements is a demo, not a main loop.
import torch
from torch import nn


class Elementwise(nn.Module):
    def forward(self, x, y):
        return x * y + y


class Scaled(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(30))

    def forward(self, x, y):
        return x * self.scale + y


mem, scaled = Elementwise(), Scaled()
for _ in range(500):
    x, y = torch.randn(10, 20, 30), torch.randn(10, 20, 30)
    print(mem(x, y).sum())  # near miss: no parameter, no graph
for _ in range(500):  # expected-hint HARP303
    x, y = torch.randn(10, 20, 30), torch.randn(10, 20, 30)
    print(scaled(x, y).sum())

h, e, l, o = [1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]
cell = nn.RNN(input_size=4, hidden_size=2, batch_first=True)
hidden = torch.randn(1, 1, 2)
inputs = torch.Tensor([h, e, l, l, o])
for one in inputs:  # expected-hint@aggressive HARP303
    out, hidden = cell(one.view(1, 1, -1), hidden)
    print(out.size())

# a shape demo stepping a cell over the ten time steps of a random sequence; a sequence of
# 500 steps is a loop that matters
rnn_cell = nn.RNNCell(100, 20)
h1 = torch.zeros(3, 20)
x = torch.randn(10, 3, 100)
for xt in x:  # expected-hint@aggressive HARP303
    h1 = rnn_cell(xt, h1)
print(h1.shape)
long_x = torch.randn(500, 3, 100)
for xt in long_x:  # expected-hint HARP303
    h1 = rnn_cell(xt, h1)
print(h1.shape)
