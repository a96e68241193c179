# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# The name a comprehension iterates is read where the comprehension runs: after
# `features` is bound again (a torchvision-style layer first, then the program's model
# whose `forward` returns its levels' feature maps as a tuple), `[gram(f) for f in
# features(x)]` visits three maps, not the rows of a batch (near miss: blind readers
# judged a style-transfer script's such loop FALSE). The positive: one call per row.
import torch
from torch import nn


class Levels(nn.Module):
    def __init__(self):
        super().__init__()
        self.layer0 = nn.Conv2d(3, 8, 3)
        self.layer1 = nn.Conv2d(8, 16, 3)
        self.layer2 = nn.Conv2d(16, 32, 3)

    def forward(self, x):
        out_0 = self.layer0(x)
        out_1 = self.layer1(out_0)
        out_2 = self.layer2(out_1)
        return out_0, out_1, out_2


class Gram(nn.Module):
    def forward(self, x):
        b, c, h, w = x.size()
        f = x.view(b, c, h * w)
        return torch.bmm(f, f.transpose(1, 2))


device = torch.device("cuda")
features = nn.Conv2d(3, 8, 3)
features = Levels().to(device)
gram = Gram().to(device)
head = nn.Linear(3 * 32 * 32, 10).to(device)
style = torch.randn(1, 3, 32, 32, device=device)
targets = list(gram(f) for f in features(style))
images = torch.randn(64, 3, 32, 32, device=device)
flat = images.flatten(1)
opt = torch.optim.Adam(head.parameters())
for step in range(1000):
    loss = sum((gram(f) - t).pow(2).mean() for f, t in zip(features(images[:1]), targets))
    logits = torch.stack([head(flat[i]) for i in range(64)])  # expected-hint HARP403
    loss = loss + logits.logsumexp(1).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
