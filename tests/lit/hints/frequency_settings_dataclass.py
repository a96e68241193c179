# RUN: %check-hints %s
# RUN: not %harp analyze --level aggressive --format json %s | FileCheck --check-prefix=AGGRESSIVE %s
# Settings kept in a dataclass and parsed by tyro (CleanRL's layout): `args.x` is the
# field's default, the value a run gets unless told otherwise. A period of 1 keeps every
# step (default level); a soft update on one step in 2 costs a few percent of a step (the
# aggressive level's, which names the period it resolved); 100 is periodic; a field the
# program rebinds is unknown. A
# handful of updates per step (`for _ in range(args.policy_frequency)`) does not make the
# step loop an epoch loop.
# AGGRESSIVE: "reason": "it runs on one step in 2 (where `global_step % args.policy_frequency == 0` holds)
from dataclasses import dataclass

import torch
import tyro
from torch import nn


@dataclass
class Args:
    policy_frequency: int = 2
    """the frequency of training the policy (delayed)"""
    target_network_frequency: int = 1
    log_every: int = 100
    rebound_every: int = 2
    tau: float = 0.005


args = tyro.cli(Args)
args.rebound_every = int(input())
device = torch.device("cuda")
actor, actor_target = nn.Linear(3, 1).to(device), nn.Linear(3, 1).to(device)
actor_optimizer = torch.optim.Adam(actor.parameters())

for global_step in range(100000):
    x = torch.randn(8, 3, device=device)
    if global_step % args.policy_frequency == 0:
        for _ in range(args.policy_frequency):  # a delayed update: two steps, not an epoch
            actor_loss = actor(x).sum()
            actor_optimizer.zero_grad()
            actor_loss.backward()
            actor_optimizer.step()
    if global_step % args.target_network_frequency == 0:
        for p, t in zip(actor.parameters(), actor_target.parameters()):  # expected-hint HARP405
            t.data.copy_(args.tau * p.data + (1 - args.tau) * t.data)
    if global_step % args.policy_frequency == 0:  # near miss: one update in 2
        for p, t in zip(actor.parameters(), actor_target.parameters()):
            t.data.copy_(args.tau * p.data + (1 - args.tau) * t.data)
    # near misses: every 100 steps, and a period the program rebinds after parsing
    if global_step % args.log_every == 0:
        for p, t in zip(actor.parameters(), actor_target.parameters()):
            t.data.copy_(args.tau * p.data + (1 - args.tau) * t.data)
    if global_step % args.rebound_every == 0:
        for p, t in zip(actor.parameters(), actor_target.parameters()):
            t.data.copy_(args.tau * p.data + (1 - args.tau) * t.data)
