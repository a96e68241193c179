"""Policy-gradient (REINFORCE) on a batch of point-mass environments simulated with
tensors; each rollout stores its states and log-probabilities."""

import os

import numpy as np
import torch
from torch import nn

SCALE = float(os.environ.get("HARP_BENCH_SCALE", "1"))
DEVICE = os.environ.get("HARP_BENCH_DEVICE", "cpu")
torch.manual_seed(4)
GOAL = np.array([1.0, -0.5, 0.25, 0.0, 0.5, -1.0, 0.0, 0.75], dtype=np.float32)
ENVS, HORIZON = 512, 500
policy = nn.Sequential(nn.Linear(8, 32), nn.Tanh(), nn.Linear(32, 8)).to(DEVICE)
optimizer = torch.optim.Adam(policy.parameters(), lr=1e-2)

returns_seen = []
for episode in range(int(8 * SCALE)):
    state = torch.zeros(ENVS, 8, device=DEVICE)
    states = torch.zeros(0, ENVS, 8, device=DEVICE)
    log_probs = torch.zeros(0, ENVS, device=DEVICE)
    episode_return = 0.0
    for t in range(HORIZON):
        goal = torch.tensor(GOAL, device=DEVICE)
        dist = torch.distributions.Normal(policy(state), 0.1)
        action = dist.sample()
        log_probs = torch.cat([log_probs, dist.log_prob(action).sum(dim=1)[None]])
        state = state + 0.1 * action
        states = torch.cat([states, state[None]])
        reward = -((state - goal) ** 2).sum(dim=1).mean()
        episode_return += reward.item()
    advantage = -((states - torch.tensor(GOAL, device=DEVICE)) ** 2).sum(dim=2)
    advantage = (advantage - advantage.mean()) / (advantage.std() + 1e-6)
    loss = -(log_probs * advantage).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    returns_seen.append(episode_return)

print(f"first {returns_seen[0]:.3f} last {returns_seen[-1]:.3f}")
