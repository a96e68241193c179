# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# Quadratic copying adds up over a long loop (concat_in_loop.py: a loop of a thousand
# iterations growing its result by `torch.cat`). Near misses (the aggressive level's): a
# model's `forward` joining one piece per class of an episode (a prototypical network, 60
# classes), run on every training step, and a loop nested in the training loop joining
# one step's pieces: blind readers judged such joins about 1% of the step.
import numpy as np
import torch
from torch import nn

device = torch.device("cuda")


class ProtoNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.f = nn.Sequential(nn.Flatten(), nn.Linear(784, 64))

    def forward(self, datax, datay, n_classes, n_query):
        classes = np.random.choice(np.unique(datay), n_classes, replace=False)  # expected-hint@aggressive HARP505
        query = torch.Tensor().to(device)
        centroids = torch.Tensor().to(device)
        for cls in classes:  # aggressive: the near miss's pieces, one per class
            rows = datax[np.nonzero(datay == cls)[0][:10]].to(device)
            centroids = torch.cat((centroids, self.f(rows[:5]).mean(0, keepdim=True)))  # expected-hint@aggressive HARP402
            query = torch.cat((query, rows[5:]), 0)  # expected-hint@aggressive HARP402
        return -torch.cdist(self.f(query), centroids)


net = ProtoNet().to(device)
opt = torch.optim.Adam(net.parameters())
images, labels = torch.randn(6000, 28, 28), np.repeat(np.arange(600), 10)
for episode in range(16000):
    opt.zero_grad()
    scores = net(images, labels, 60, 5)
    loss = scores.logsumexp(1).mean()
    loss.backward()
    opt.step()
    window = torch.empty(0, 64, device=device)
    for t in range(8):
        window = torch.cat([window, scores[:, :64] * t])  # expected-hint@aggressive HARP402
    opt.zero_grad()

