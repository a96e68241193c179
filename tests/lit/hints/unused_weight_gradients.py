# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# A backward pass through a model nothing trains computes a gradient for every weight:
# an image optimised through a pretrained network, an adversarial example, a perceptual
# loss. Near misses: a model an optimizer holds, frozen parameters, weight gradients read,
# `torch.autograd.grad` (which computes only what it is asked for), a model whose weights
# the loop copies in, a loop that runs once.
import torch
import torch.nn.functional as F
from torch import nn, optim
from torchvision import models

net = models.alexnet(pretrained=True)
image = torch.rand(1, 3, 224, 224, requires_grad=True)
ascent = optim.SGD([image], lr=6)
for i in range(150):
    ascent.zero_grad()
    out = net(image)  # expected-hint HARP304
    (-out[0, 3]).backward()
    ascent.step()


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        return self.fc(x)


def fgsm(model, loader, eps):
    for x, y in loader:
        x = x.clone().requires_grad_(True)
        loss = F.cross_entropy(model(x), y)  # expected-hint HARP304
        loss.backward()
        x = x + eps * x.grad.sign()


attacked = Net()
attacked.load_state_dict(torch.load("net.pt"))  # loaded once: still nothing trains it
fgsm(attacked, [(torch.rand(8, 4), torch.zeros(8, dtype=torch.long))] * 100, 0.1)

# A perceptual loss through a fixed network, and one through a frozen one (near miss).
generator = Net()
g_opt = optim.Adam(generator.parameters())
features = nn.Sequential(nn.Linear(2, 8), nn.ReLU())
frozen = nn.Sequential(nn.Linear(2, 8), nn.ReLU())
for p in frozen.parameters():
    p.requires_grad_(False)
for step in range(1000):
    fake = generator(torch.rand(8, 4))
    perceptual = features(fake).pow(2).mean()  # expected-hint HARP304
    g_opt.zero_grad()
    perceptual.backward()
    g_opt.step()


# Near misses.
# trained: an optimizer holds its parameters
model = Net()
opt = optim.SGD(model.parameters(), lr=0.1)
for step in range(1000):
    opt.zero_grad()
    F.mse_loss(model(torch.rand(8, 4)), torch.rand(8, 2)).backward()
    opt.step()

# weight gradients read: a saliency of the weights
probe = Net()
for step in range(1000):
    x = torch.rand(8, 4, requires_grad=True)
    probe(x).sum().backward()
    norms = [p.grad.norm() for p in probe.parameters()]

# torch.autograd.grad computes only the input's gradient
critic = Net()
for step in range(1000):
    x = torch.rand(8, 4, requires_grad=True)
    (g,) = torch.autograd.grad(critic(x).sum(), x)

# a model passed to a library call that may train it
import lightning

lit = Net()
trainer = lightning.Trainer()
trainer.fit(lit)
for step in range(1000):
    x = torch.rand(8, 4, requires_grad=True)
    lit(x).sum().backward()

# a target network: the loop copies the trained weights in
online, target = Net(), Net()
q_opt = optim.Adam(online.parameters())
for step in range(1000):
    x = torch.rand(8, 4)
    loss = (online(x) - target(x)).pow(2).mean() + target(x * 2).sum()
    q_opt.zero_grad()
    loss.backward()
    q_opt.step()
    if step % 100 == 0:
        target.load_state_dict(online.state_dict())


# a loss written as a module has no weights
class PairLoss(nn.Module):
    def forward(self, a, b):
        return (a - b).pow(2).mean()


encoder = Net()
enc_opt = optim.Adam(encoder.parameters())
pair = PairLoss()
for step in range(1000):
    loss = pair(encoder(torch.rand(8, 4)), encoder(torch.rand(8, 4)))
    enc_opt.zero_grad()
    loss.backward()
    enc_opt.step()


# a backward whose gradients nothing uses at all (no optimizer steps, no `.grad` read): the
# whole backward is wasted, and freezing the weights would leave it nothing to differentiate
probe_only = Net()
for step in range(1000):
    probe_only(torch.rand(8, 4)).pow(2).mean().backward()


# a target network loaded once and then moved towards the online one by a soft update
def soft_update(target, source, tau):
    for t, s in zip(target.parameters(), source.parameters()):  # expected-hint@aggressive HARP405
        t.data.mul_(1 - tau).add_(tau * s.data)


actor, actor_target = Net(), Net()
actor_target.load_state_dict(actor.state_dict())
actor_opt = optim.Adam(actor.parameters())
for step in range(1000):
    x = torch.rand(8, 4, requires_grad=True)
    loss = actor(x).sum() + actor_target(x).sum()
    actor_opt.zero_grad()
    loss.backward()
    actor_opt.step()
    soft_update(actor_target, actor, 0.01)


# a hand-written gradient step: the loop reads each parameter's `.grad` by name
class Conv(nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(1, 2))
        self.bias = nn.Parameter(torch.randn(1))

    def forward(self, x):
        return x @ self.weight.t() + self.bias


conv = Conv()
for step in range(1000):
    loss = ((conv(torch.rand(8, 2)) - 1) ** 2).sum()
    loss.backward()
    conv.weight.data -= 0.01 * conv.weight.grad
    conv.bias.data -= 0.01 * conv.bias.grad
    conv.weight.grad.zero_()  # expected-hint@aggressive HARP502
    conv.bias.grad.zero_()  # expected-hint@aggressive HARP502
