# RUN: %check-hints %s
# A module whose `forward` runs its own update (a meta-learner: inner steps, then
# `backward()` and the optimizer's step): calling it is the training step, so the loop
# around the call trains, and the call's result ending on the host does not make the
# forward wasted. A helper that takes `torch.autograd.grad` needs autograd too.
import torch
from torch import nn, optim


class Meta(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Linear(4, 2)
        self.meta_optim = optim.Adam(self.net.parameters())

    def forward(self, x, y):
        loss = ((self.net(x) - y) ** 2).mean()
        self.meta_optim.zero_grad()
        loss.backward()
        self.meta_optim.step()
        return loss.detach()

    def finetune(self, x, y):
        loss = ((self.net(x) - y) ** 2).mean()
        grads = torch.autograd.grad(loss, list(self.net.parameters()))
        return [g.norm() for g in grads]


class Scorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Linear(4, 2)

    def forward(self, x):
        return self.net(x).argmax(1)


def main():
    device = torch.device("cuda")
    maml = Meta().to(device)
    scorer = Scorer().to(device)
    for step in range(1000):
        x = torch.randn(8, 4, device=device)
        y = torch.randn(8, 2, device=device)
        accs = maml(x, y)
        if step % 50 == 0:
            print(step, accs)
    # Near miss: an evaluation that adapts by gradients needs autograd.
    for _ in range(100):
        x = torch.randn(8, 4, device=device)
        print(maml.finetune(x, torch.randn(8, 2, device=device)))
    # Positive (aggressive: an evaluation pass of a program that trains): a module whose
    # forward only infers, in a loop that never trains.
    hits = torch.zeros((), device=device)
    for _ in range(1000):  # expected-hint@aggressive HARP303
        hits += scorer(torch.randn(8, 4, device=device)).sum()
    print(hits)


if __name__ == "__main__":
    main()
