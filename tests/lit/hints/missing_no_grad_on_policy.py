# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# An on-policy agent acts on every environment step and trains once per rollout (`if
# self.steps == self.sample_size`, the counter it adds one to each step): acting is the
# step, so autograd's recording of the acting forward is a real share of it. Near misses
# (aggressive level only): an off-policy agent that learns on every step (the recording
# is a few percent of a step that also trains), and the same loop's evaluation branch.
import torch
from torch import nn


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        return torch.softmax(self.fc(x), dim=-1)


class OnPolicy:
    def __init__(self, env):
        self.env = env
        self.policy = Policy()
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

    def run(self, max_step):
        obs = self.env.reset()
        for step_number in range(max_step):
            if self.eval_mode:
                probs = self.policy(torch.Tensor(obs))  # expected-hint@aggressive HARP303
                action = probs.argmax().item()  # expected-hint@aggressive HARP201
            else:
                self.steps += 1
                probs = self.policy(torch.Tensor(obs))  # expected-hint HARP303
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
