# RUN: %check-hints %s
# Near miss: a policy no optimizer holds, set by hand (TRPO's `set_flat_params`), whose
# forward feeds a loss that `torch.autograd.grad` differentiates: autograd's record of that
# forward is the gradient the update uses, so `no_grad` there would break the program.
import torch
from torch import nn


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        return torch.log_softmax(self.fc(x), dim=-1)


def set_flat_params(model, flat):
    start = 0
    for p in model.parameters():  # expected-hint HARP405
        p.data.copy_(flat[start:start + p.numel()].view_as(p))
        start += p.numel()


class Agent:
    def __init__(self):
        self.policy = Policy()
        self.value = Policy()
        self.vf_optimizer = torch.optim.Adam(self.value.parameters())

    def train_model(self, obs, adv):
        v = self.value(obs).mean()
        self.vf_optimizer.zero_grad()
        v.backward()
        self.vf_optimizer.step()
        log_pi = self.policy(obs)
        loss = (log_pi.mean(dim=1) * adv).mean()
        grads = torch.autograd.grad(loss, self.policy.parameters())
        flat = torch.cat([g.view(-1) for g in grads])
        old = torch.cat([p.data.view(-1) for p in self.policy.parameters()])
        set_flat_params(self.policy, old + 0.01 * flat)


device = torch.device("cuda")
agent = Agent()
while True:
    agent.train_model(torch.randn(64, 4), torch.randn(64))
