# RUN: %check-hints %s
# A program that only infers: its loop over the data is its main loop, and a forward run
# with autograd on there records graphs for nothing.
import torch
from torch import nn

model = nn.Linear(4, 2)
data = [torch.randn(8, 4) for _ in range(400)]
correct = torch.zeros(())
for x in data:  # expected-hint HARP303
    correct += model(x).argmax(1).sum()


def predict(loader):
    scores = []
    for x in loader:  # expected-hint HARP303
        scores.append(model(x))
    return scores


# Near miss: already under inference_mode.
with torch.inference_mode():
    for x in data:
        model(x)
print(int(correct), len(predict(data)))
