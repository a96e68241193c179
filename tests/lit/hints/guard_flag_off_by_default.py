# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# A guard whose conjunct is a command-line flag off by default (`action="store_true"`):
# the branch runs only in a mode the user asks for (`--train_behavioral`), so a per-step
# cost there rests on a high-risk speculation. Near miss: a flag on by default.
import argparse

import torch
from torch import nn

parser = argparse.ArgumentParser()
parser.add_argument("--train_behavioral", action="store_true")
parser.add_argument("--soft_update", type=bool, default=True)
parser.add_argument("--start_timesteps", type=int, default=1000)
args = parser.parse_args()

device = torch.device("cuda")
critic = nn.Linear(4, 1).to(device)
target = nn.Linear(4, 1).to(device)
opt = torch.optim.Adam(critic.parameters())
for t in range(1000000):
    loss = critic(torch.randn(256, 4, device=device)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if args.train_behavioral and t >= args.start_timesteps:
        for p, tp in zip(critic.parameters(), target.parameters()):  # expected-hint@aggressive HARP405
            tp.data.copy_(0.005 * p.data + 0.995 * tp.data)
    if args.soft_update and t >= args.start_timesteps:
        for p, tp in zip(critic.parameters(), target.parameters()):  # expected-hint HARP405
            tp.data.copy_(0.005 * p.data + 0.995 * tp.data)
