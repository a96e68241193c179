# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# This program trains (see the near misses), so its inference loops are evaluation passes,
# run once or once per epoch: the aggressive level (missing_no_grad_inference.py has them
# in a program that only infers, at the default level).
import torch
from torch import nn

model = nn.Linear(4, 2)
data = [torch.randn(8, 4) for _ in range(4)]
correct = torch.zeros(())
for x in data:  # expected-hint@aggressive HARP303
    correct += model(x).argmax(1).sum()

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        return self.fc(x)

net = Net()
outputs = []
for x in data:  # expected-hint@aggressive HARP303
    for _ in range(2):
        outputs.append(net(x))

def evaluate(loader):
    scores = []
    for x in loader:  # expected-hint@aggressive HARP303
        scores.append(model(x))
    return scores

# Near misses: a training loop; inference under inference_mode or a no_grad function.
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for x in data:
    opt.zero_grad()
    model(x).sum().backward()
    opt.step()
with torch.inference_mode():
    for x in data:
        model(x)

@torch.no_grad()
def predict(loader):
    return [model(x) for x in loader]

# A loss summed over a loop and backpropagated after it needs the graph.
def style_step(features, targets):
    style_loss = 0.0
    for f, t in zip(features, targets):
        style_loss += nn.functional.mse_loss(model(f), t)
    total = style_loss * 2
    total.backward()


# Near misses across calls: a module's forward looping over time steps (its caller decides
# whether autograd records), and a helper that only a no_grad method calls.
class PerStep(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(4, 2)

    def forward(self, x):
        outs = []
        for t in range(x.size(1)):
            outs.append(self.linear(x[:, t]))  # expected-hint@aggressive HARP403
        return torch.stack(outs, 1)


class Tester:
    def __init__(self):
        self.model = nn.Linear(4, 2)

    @torch.no_grad()
    def test(self, loader):
        return self.statistics(loader)

    def statistics(self, loader):
        total = torch.zeros(())
        for x in loader:
            total += self.model(x).sum()
        return total
