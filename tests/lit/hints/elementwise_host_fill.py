# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# A tensor filled one element at a time from Python values (`t[c] = chars.index(s[c])`)
# costs a framework op per element; a character RNN does it for every character of every
# sequence of every training batch. Near misses: the same fill once, before training (a
# data set's ids built in set-up), a fill of a handful of elements per step, a numpy
# array filled row by row from a replay minibatch (a fraction of a microsecond an
# element), and a decoder's outputs written per time step (each needs the one before).
import random
import string

import numpy as np
import torch
from torch import nn

chars = string.printable
text = open("input.txt").read()


def char_tensor(s):
    tensor = torch.zeros(len(s)).long()
    for c in range(len(s)):  # expected-hint HARP401
        tensor[c] = chars.index(s[c])
    return tensor


def batch(chunk_len, batch_size):
    inp = torch.LongTensor(batch_size, chunk_len)
    for b in range(batch_size):
        start = random.randint(0, len(text) - chunk_len)
        inp[b] = char_tensor(text[start:start + chunk_len])
    return inp


words = text.split()
ids = torch.zeros(len(words)).long()
for i in range(len(words)):
    ids[i] = hash(words[i]) % 100



class Seq2Seq(nn.Module):
    def __init__(self):
        super().__init__()
        self.cell = nn.GRUCell(100, 100)

    def forward(self, src):
        outputs = torch.zeros(src.size(0), src.size(1), 100)
        hidden = torch.zeros(src.size(1), 100)
        inp = torch.zeros(src.size(1), 100)
        for t in range(1, src.size(0)):
            hidden = self.cell(inp, hidden)
            outputs[t] = hidden
            inp = hidden
        return outputs


memory = [(np.random.rand(4), 0, 1.0)] * 10000
model = nn.Sequential(nn.Embedding(100, 32), nn.Linear(32, 100))
decoder = Seq2Seq()
opt = torch.optim.Adam(model.parameters())
out_seed = torch.zeros(20, 64)
for step in range(5000):
    inp = batch(200, 64)
    flags = torch.zeros(4)
    for k in range(4):
        flags[k] = float(step % (k + 2) == 0)
    minibatch = random.sample(memory, 64)
    states = np.zeros((64, 4))
    for i in range(64):
        states[i] = minibatch[i][0]
    with torch.no_grad():
        decoded = decoder(out_seed)
    out = model(inp[:, :-1]) * flags.sum() + decoded.sum() * float(states.sum())
    loss = nn.functional.cross_entropy(out.reshape(-1, 100), inp[:, 1:].reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
print(ids.sum())
