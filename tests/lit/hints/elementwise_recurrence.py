# RUN: %check-hints %s
# RUN: not %check-hints --level aggressive %s 2>&1 | FileCheck --check-prefix=AGGRESSIVE %s
# RUN: %expect-exit 1 %harp analyze --no-config --level aggressive --select HARP401 %s | FileCheck %s
# A recurrence over a rollout's tensors, one time step per iteration (GAE, a discounted
# return): it cannot be one op, but each iteration runs framework ops on single elements,
# where the same arithmetic on host numbers costs a fraction. Beside a rollout loop with
# the same bound it runs once per step, a few percent of a step that runs a model: blind
# readers judged such loops DEBATABLE, so they are the aggressive level's.
# CHECK: elementwise_recurrence.py:42:5: HARP401
# CHECK-SAME: computes a recurrence over `advantages` one element at a time
# CHECK-SAME: `lastgaelam`
# CHECK-SAME: it runs as many iterations as the `for step` loop (line 31)
# AGGRESSIVE: elementwise_recurrence.py:42: unexpected HARP401
# AGGRESSIVE: elementwise_recurrence.py:57: unexpected HARP401
# AGGRESSIVE: elementwise_recurrence.py:96: unexpected HARP401
import argparse

import numpy as np
import torch

parser = argparse.ArgumentParser()
parser.add_argument("--num-steps", type=int, default=128)
args = parser.parse_args()
device = torch.device("cuda")
policy = torch.nn.Linear(4, 1).to(device)
opt = torch.optim.Adam(policy.parameters())
rewards = torch.zeros(args.num_steps).to(device)
values = torch.zeros(args.num_steps + 1).to(device)
advantages = torch.zeros(args.num_steps).to(device)
for update in range(1000):
    for step in range(args.num_steps):
        obs = torch.randn(4, device=device)
        with torch.no_grad():
            values[step] = policy(obs).squeeze()
        rewards[step] = obs.sum()
    lastgaelam = 0
    steps = []
    for t in range(args.num_steps):  # near miss: no iteration reads the one before
        steps.append(t)
        delta = rewards[t] - values[t]
        advantages[t] = delta
    for t in reversed(range(args.num_steps)):  # aggressive level
        delta = rewards[t] + 0.99 * values[t + 1] - values[t]
        advantages[t] = lastgaelam = delta + 0.99 * 0.95 * lastgaelam
    loss = (policy(torch.randn(8, 4, device=device)).squeeze() * advantages[:8]).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()


# A recurrence over what an episode loop collected, sized by the tensor: how many steps it
# visits is not proved to be the steps', so it runs once per update, the aggressive level's.
def update(memory):
    rewards = torch.Tensor(memory)
    returns = torch.Tensor(len(memory))
    prev = 0
    for i in reversed(range(rewards.size(0))):
        returns[i] = rewards[i] + 0.99 * prev
        prev = returns[i]
    loss = -(returns * policy(torch.randn(len(memory), 4, device=device)).squeeze()).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()


for episode in range(100):
    memory = []
    for t in range(200):
        action = policy(torch.randn(4, device=device))
        memory.append(float(action.item()))
    update(memory)


# Near misses: the same recurrence on NumPy arrays (host numbers already); one that calls a
# function of the program; a handful of steps (aggressive).
def returns_of(rs, gamma=0.99):
    out, running = np.zeros(len(rs)), 0.0
    for t in reversed(range(len(rs))):
        running = rs[t] + gamma * running
        out[t] = running
    return out


def clipped(x):
    return x.clamp(-1, 1)


for update in range(1000):
    r = torch.randn(64, device=device)
    acc = torch.zeros(64, device=device)
    carry = 0
    for t in reversed(range(r.size(0))):
        acc[t] = carry = clipped(r[t] + 0.9 * carry)
    few = torch.zeros(5, device=device)
    carry = 0
    for t in reversed(range(5)):
        few[t] = carry = r[t] + 0.9 * carry
    print(returns_of(np.ones(200)), acc.sum(), few.sum())
    loss = policy(r[:4]).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
