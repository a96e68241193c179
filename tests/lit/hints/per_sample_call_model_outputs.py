# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# A loop over what a model of the program returns visits examples only when the model
# returns a tensor (its rows); a feature pyramid whose `forward` returns a list of maps
# of different sizes hands out one level per iteration, and a shared head called on each
# level is not a per-example call (the levels cannot be stacked into one batch).
import torch
from torch import nn


class Pyramid(nn.Module):
    def __init__(self):
        super().__init__()
        self.p3 = nn.Conv2d(8, 8, 3, padding=1)
        self.p4 = nn.Conv2d(8, 8, 3, stride=2, padding=1)
        self.p5 = nn.Conv2d(8, 8, 3, stride=2, padding=1)

    def forward(self, x):
        p3 = self.p3(x)
        p4 = self.p4(p3)
        p5 = self.p5(p4)
        return [p3, p4, p5]


class Trunk(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(8, 8, 3, padding=1)

    def forward(self, x):
        return self.conv(x)


class Head(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(8, 4, 3, padding=1)

    def forward(self, x):
        return self.conv(x).flatten(1)


class Detector(nn.Module):
    def __init__(self):
        super().__init__()
        self.fpn = Pyramid()
        self.trunk = Trunk()
        self.head = Head()

    def forward(self, x):
        features = self.fpn(x)
        levels = torch.cat([self.head(f) for f in features], dim=1)
        rows = self.trunk(x)
        per_image = torch.stack([self.head(r) for r in rows])  # expected-hint HARP403
        return levels, per_image


model = Detector().eval()
with torch.no_grad():
    for batch in torch.randn(100, 4, 8, 16, 16):
        print(model(batch))  # expected-hint HARP403
