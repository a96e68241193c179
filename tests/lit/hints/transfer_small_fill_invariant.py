# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# A filled buffer moved in a loop that could move it once (an A3C worker's `R =
# torch.zeros(1, 1).cuda()` per rollout): the loop-invariant form of a buffer filled on the
# host only to be moved. What the move costs is the buffer's size: a handful of numbers
# is at the aggressive level only (blind readers judged four of them in a real A3C worker
# not worth the change); a buffer of millions of numbers stays at the default level in a
# loop of training steps, as does a loop-invariant array that is not a fresh filled
# buffer. Once per rollout (the steps run in `act`, a helper that runs the model), every
# such copy is the aggressive level's.
import numpy as np
import torch
from torch import nn


def act(model, env, state, hx):
    value, hx = model(state, hx)
    obs, reward, done, _ = env.step(0)
    return torch.from_numpy(obs).float().cuda(), value, hx, reward


def worker(model, optimizer, env, rollouts=100000, steps=20):
    state = torch.from_numpy(env.reset()).float().cuda()
    table = np.load("weights.npy")
    for rollout in range(rollouts):
        hx = torch.zeros(1, 256).cuda()  # expected-hint@aggressive HARP202
        big = torch.zeros(2048, 1024).cuda()  # expected-hint@aggressive HARP202
        weights = torch.from_numpy(table).cuda()  # expected-hint@aggressive HARP202
        values, rewards = [], []
        for step in range(steps):
            state, value, hx, reward = act(model, env, state, hx)
            values.append(value)
            rewards.append(reward)
        R = torch.zeros(1, 1).cuda()  # expected-hint@aggressive HARP202
        returns = R + torch.tensor(rewards, device=R.device).flip(0).cumsum(0).flip(0)
        loss = (torch.cat(values).squeeze(-1) - returns).pow(2).sum()
        loss = loss + (big.sum() + weights.sum()) * 0
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def train_steps(model, optimizer, batches):
    table = np.load("weights.npy")
    for state, target in batches:
        big = torch.zeros(2048, 1024).cuda()  # expected-hint HARP202
        weights = torch.from_numpy(table).cuda()  # expected-hint HARP202
        bias = torch.zeros(1, 1).cuda()  # expected-hint@aggressive HARP202
        value, _ = model(state.cuda(), torch.zeros(1, 256, device="cuda"))
        loss = (value - target.cuda() + bias).pow(2).sum() + (big.sum() + weights.sum()) * 0
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.cell = nn.LSTMCell(4, 256)
        self.v = nn.Linear(256, 1)

    def forward(self, x, hx):
        h, _ = self.cell(x, (hx, hx))
        return self.v(h), h


if __name__ == "__main__":
    import gym
    model = Net().cuda()
    optimizer = torch.optim.Adam(model.parameters())
    worker(model, optimizer, gym.make("CartPole-v1"))
    train_steps(model, optimizer, [(torch.randn(1, 4), torch.randn(1, 1)) for _ in range(10000)])
