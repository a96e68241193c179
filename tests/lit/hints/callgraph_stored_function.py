# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# A trainer given the function that samples its batches (`Trainer(model, opt,
# get_batch=get_batch)`, stored as `self.get_batch` in the base class's `__init__`): its
# `train_step` calls `self.get_batch(...)` on every step, so the sampler runs on every step
# of the training loop, through the subclass's `train_step` and the base class's
# `train_iteration`; a lambda given to another trainer is followed the same way, to the
# function it calls. Near misses: the evaluation function the trainer is given, called
# under `if step % 1000 == 0`; a trainer given a `functools.partial` (what it runs is not
# followed).
import functools

import numpy as np
import torch
from torch import nn

device = torch.device("cuda")


class Trainer:
    def __init__(self, model, optimizer, get_batch, evaluate=None):
        self.model = model
        self.optimizer = optimizer
        self.get_batch = get_batch
        self.evaluate = evaluate

    def train_iteration(self, num_steps):
        for step in range(num_steps):
            loss = self.train_step()
            if step % 1000 == 0 and self.evaluate is not None:
                self.evaluate(self.model)
        return loss

    def train_step(self):
        raise NotImplementedError


class SequenceTrainer(Trainer):
    def train_step(self):
        states, targets, mask = self.get_batch(64)
        loss = ((self.model(states) - targets) ** 2 * mask).mean()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.detach()


def experiment(data):
    def get_batch(batch_size):
        idx = np.random.randint(0, len(data), size=batch_size)
        states = torch.from_numpy(data[idx]).to(device)
        mask = torch.ones(64, 4096, 1024).to(device)  # expected-hint HARP202
        return states, states.sum(-1, keepdim=True), mask[:, :1, :1].squeeze(-1)

    def evaluate(model):
        probe = torch.ones(1024, 4096, 1024).to(device)
        return model(probe[:, 0, :8]).mean()

    model = nn.Linear(8, 1).to(device)
    opt = torch.optim.AdamW(model.parameters())
    trainer = SequenceTrainer(model, opt, get_batch=get_batch, evaluate=evaluate)
    for it in range(10):
        trainer.train_iteration(10000)


class SampledTrainer(Trainer):
    def train_step(self):
        states, targets, mask = self.get_batch(64)
        loss = ((self.model(states) - targets) ** 2).mean()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.detach()


def sample_large(batch_size):
    return torch.ones(64, 4096, 1024).to(device), None, None  # expected-hint HARP202


def sample_partial(batch_size, scale):
    return torch.ones(64, 4096, 1024).to(device) * scale, None, None


class PartialTrainer(Trainer):
    def train_step(self):
        states, _, _ = self.get_batch(64)
        loss = self.model(states[:, 0, :8]).mean()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.detach()


def lambdas(data):
    model = nn.Linear(8, 1).to(device)
    trainer = SampledTrainer(model, torch.optim.AdamW(model.parameters()),
                             lambda n: sample_large(n))
    trainer.train_iteration(10000)
    partial = PartialTrainer(model, torch.optim.AdamW(model.parameters()),
                             functools.partial(sample_partial, scale=2.0))
    partial.train_iteration(10000)


if __name__ == "__main__":
    experiment(np.random.rand(1000, 8).astype("float32"))
    lambdas(None)
