# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# An on-policy agent acts on every environment step and trains once per rollout (`if
# self.steps == self.sample_size`, the counter it adds one to each step: the update's
# forwards run on one iteration in 2048, not "most"). Its acting forward, like an
# off-policy agent's, saves only autograd's recording under no_grad: blind judges found
# such forwards a few percent of a step, so they show at the aggressive level only, and
# so does a per-parameter update the rollout's update runs.
import torch
from torch import nn


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        return torch.softmax(self.fc(x), dim=-1)


device = torch.device("cuda")


class OnPolicy:
    def __init__(self, env):
        self.env = env
        self.policy = Policy().to(device)
        self.average = Policy().to(device)
        self.opt = torch.optim.Adam(self.policy.parameters())
        self.steps = 0
        self.sample_size = 2048
        self.eval_mode = False
        self.obs = []

    def train_model(self):
        loss = self.policy(torch.stack(self.obs)).log().mean()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.obs = []
        # once per rollout, not on most steps: a per-parameter update here is small
        for p, a in zip(self.policy.parameters(), self.average.parameters()):  # expected-hint@aggressive HARP405
            a.data.copy_(0.99 * a.data + 0.01 * p.data)

    def run(self, max_step):
        obs = self.env.reset()
        for step_number in range(max_step):
            if self.eval_mode:
                probs = self.policy(torch.Tensor(obs))  # expected-hint@aggressive HARP303
                action = probs.argmax().item()  # expected-hint@aggressive HARP201
            else:
                self.steps += 1
                probs = self.policy(torch.Tensor(obs))  # expected-hint@aggressive HARP303
                action = probs.argmax().item()  # expected-hint@aggressive HARP201
                self.obs.append(torch.Tensor(obs))
                if self.steps == self.sample_size:
                    self.train_model()
                    self.steps = 0
            obs, reward, done, _ = self.env.step(action)
            if done:
                obs = self.env.reset()


class OffPolicy:
    def __init__(self, env):
        self.env = env
        self.policy = Policy()
        self.opt = torch.optim.Adam(self.policy.parameters())
        self.obs = []

    def train_model(self):
        loss = self.policy(torch.stack(self.obs[-32:])).log().mean()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()

    def run(self, max_step):
        obs = self.env.reset()
        for step_number in range(max_step):
            probs = self.policy(torch.Tensor(obs))  # expected-hint@aggressive HARP303
            action = probs.argmax().item()  # expected-hint@aggressive HARP201
            self.obs.append(torch.Tensor(obs))
            self.train_model()
            obs, reward, done, _ = self.env.step(action)


def main(env):
    OnPolicy(env).run(1000000)
    OffPolicy(env).run(1000000)
