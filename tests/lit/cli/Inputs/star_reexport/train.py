import random

import torch
from torch import nn

from helpers import *
from generate import *

text = open("input.txt").read()


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(100, 64)
        self.rnn = nn.GRU(64, 64, batch_first=True)
        self.out = nn.Linear(64, 100)

    def forward(self, x):
        output, _ = self.rnn(self.embed(x))
        return self.out(output)


def random_training_set(chunk_len, batch_size):
    inp = torch.LongTensor(batch_size, chunk_len)
    for bi in range(batch_size):
        start = random.randint(0, len(text) - chunk_len)
        inp[bi] = char_tensor(text[start:start + chunk_len])
    return inp


def train(inp):
    output = decoder(inp[:, :-1])
    loss = nn.functional.cross_entropy(output.reshape(-1, 100), inp[:, 1:].reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


decoder = Decoder()
opt = torch.optim.Adam(decoder.parameters())
for epoch in range(2000):
    loss = train(random_training_set(200, 100))
print(generate(decoder))
