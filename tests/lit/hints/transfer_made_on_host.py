# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# A buffer filled on the host only to be moved, in a forward that every training step runs
# (`model(x)` of `Seq2Seq().to(device)` runs `Seq2Seq.forward`): default level when its
# shape makes it large (two million numbers); a shape the code does not fix, or a small
# one, only at the aggressive level (blind readers judged small ones not worth it). Near misses: `device=` already given; a move to a dtype;
# a buffer made once in `__init__`; a forward only an evaluation pass runs.
import torch
from torch import nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class Seq2Seq(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 100)
        self.start = torch.zeros(1, 8).to(device)

    def forward(self, x, steps):
        outputs = torch.zeros(steps, x.size(0), 100).to(device)  # expected-hint@aggressive HARP202
        logits = torch.zeros(4, 512, 1000).to(device)  # expected-hint HARP202
        mask = torch.ones(4, 4).cuda()  # expected-hint@aggressive HARP202
        ready = torch.zeros(steps, x.size(0), 100, device=device)
        half = torch.zeros(steps, 8).to(torch.float16)
        # (aggressive: a false HARP303, the loop's outputs do reach backward through the
        # caller; it rests on a high-risk speculation that they do not)
        for t in range(steps):  # expected-hint@aggressive HARP303
            outputs[t] = self.fc(x)
        return outputs + ready + mask.sum() + half.sum() + logits.sum()


class Probe(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 2)

    def forward(self, x):
        return self.fc(x) + torch.zeros(x.size(0), 2).to(device)


model = Seq2Seq().to(device)
probe = Probe().to(device)
opt = torch.optim.Adam(model.parameters())


def train(loader):
    for x in loader:
        loss = model(x.to(device), 20).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()


def evaluate(loader):
    with torch.no_grad():
        for x in loader:
            probe(x.to(device))


for epoch in range(10):
    train([torch.randn(32, 8) for _ in range(100)])
    evaluate([torch.randn(32, 8) for _ in range(10)])
