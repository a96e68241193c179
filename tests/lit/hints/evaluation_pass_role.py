# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# A loop's role in the program is a fact every rule shares: in a program that trains, a
# loop whose iterations run no backward or optimizer step (a test pass after training, an
# mAP over the detections, a plot of the fit) runs once or once an epoch. A per-iteration
# cost there (a copy, a round trip, an invariant computation) rests on a high-risk
# speculation, the aggressive level's; the same cost in the training loop is reported.
import numpy as np
import torch
from torch import nn

device = torch.device("cuda")
model = nn.Linear(4, 2).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
weights = torch.from_numpy(np.load("class_weights.npy"))  # two class weights
loader = [(torch.randn(8, 4), torch.randn(8, 2)) for _ in range(100)]

for epoch in range(10):
    for x, y in loader:
        w = weights.to(device)  # expected-hint HARP202
        loss = ((model(x.to(device)) - y.to(device)) ** 2 * w).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


def detect(batch):
    kept = []
    for image in batch:  # one image at a time, as detectors suppress boxes
        scores = model(image.to(device)).detach().cpu().numpy()  # expected-hint@aggressive HARP201
        kept.append(torch.from_numpy(np.exp(scores)).to(device))  # expected-hint@aggressive HARP204
    return kept


def mean_precision(detections, labels):
    precisions = []
    for d in range(len(detections)):
        scale = weights.to(device)  # expected-hint@aggressive HARP202
        base = torch.exp(weights)  # expected-hint@aggressive HARP301
        precisions.append((detections[d] * scale * base).sum())
    return precisions


found = []
with torch.no_grad():
    for x, y in loader:
        found.append(detect(x))
print(mean_precision(found, None))
