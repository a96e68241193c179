import torch

import model

# the module's name is rebound to the model it builds (as salesforce/awd-lstm-lm does)
model = model.Stack()
if torch.cuda.is_available():
    model.cuda()
with open(__file__, "rb") as f:
    restored = True  # a checkpoint would be `model = torch.load(f)`: the same class
opt = torch.optim.Adam(model.parameters())
x = torch.randn(64, 8).cuda() if torch.cuda.is_available() else torch.randn(64, 8)


def train():
    for step in range(100):
        out, layer_outputs, sums = model(x, return_h=True)
        loss = out.pow(2).mean() + sum(h.pow(2).mean() for h in layer_outputs[-1:])
        opt.zero_grad()
        loss.backward()
        opt.step()
        shown = [s.item() for s in sums]


train()
