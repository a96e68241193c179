"""What a per-parameter soft update costs against the update it follows (HARP405).

    python bench/parameter_loop_cost.py [--hidden 256] [--device cpu|cuda] [--runs 300]

Builds a DDPG-sized actor and critic (two hidden layers each) with target copies, and times
three things per call, after a warm-up: one update (critic and actor losses, backward,
Adam steps), the Polyak update written as a Python loop over the parameters
(`pt.data.mul_(polyak); pt.data.add_((1 - polyak) * p.data)`, three ops per parameter),
and the same update as one `torch._foreach_lerp_`. It checks that the loop and the fused
form leave the same target weights (to float32 rounding) before it prints.
"""

from __future__ import annotations

import argparse
import copy
import time

import torch
from torch import nn


def mlp(inputs: int, outputs: int, hidden: int) -> nn.Module:
    return nn.Sequential(nn.Linear(inputs, hidden), nn.ReLU(), nn.Linear(hidden, hidden),
                         nn.ReLU(), nn.Linear(hidden, outputs))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hidden", type=int, default=256)
    p.add_argument("--device", default="cpu")
    p.add_argument("--runs", type=int, default=300)
    args = p.parse_args(argv)
    torch.manual_seed(0)
    dev = torch.device(args.device)
    actor, critic = mlp(17, 6, args.hidden).to(dev), mlp(23, 1, args.hidden).to(dev)
    actor_t, critic_t = copy.deepcopy(actor), copy.deepcopy(critic)
    q_opt = torch.optim.Adam(critic.parameters(), 1e-3)
    pi_opt = torch.optim.Adam(actor.parameters(), 1e-3)
    o, a, r, o2 = (torch.randn(100, n, device=dev) for n in (17, 6, 1, 17))
    sources = list(actor.parameters()) + list(critic.parameters())
    targets = list(actor_t.parameters()) + list(critic_t.parameters())
    polyak = 0.995

    def update():
        with torch.no_grad():
            y = r + 0.99 * critic_t(torch.cat([o2, actor_t(o2)], 1))
        q_loss = ((critic(torch.cat([o, a], 1)) - y) ** 2).mean()
        q_opt.zero_grad()
        q_loss.backward()
        q_opt.step()
        pi_loss = -critic(torch.cat([o, actor(o)], 1)).mean()
        pi_opt.zero_grad()
        pi_loss.backward()
        pi_opt.step()

    def per_parameter():
        with torch.no_grad():
            for pt, ps in zip(targets, sources, strict=True):
                pt.data.mul_(polyak)
                pt.data.add_((1 - polyak) * ps.data)

    def fused():
        with torch.no_grad():
            torch._foreach_lerp_(targets, sources, 1 - polyak)

    update()
    before = [t.detach().clone() for t in targets]
    per_parameter()
    looped = [t.detach().clone() for t in targets]
    for t, b in zip(targets, before, strict=True):
        t.data.copy_(b)
    fused()
    same = all(torch.allclose(x, y, rtol=1e-6, atol=1e-7)
               for x, y in zip(looped, targets, strict=True))
    print(f"device {dev}, hidden {args.hidden}, {len(targets)} parameters, "
          f"loop and _foreach_lerp_ agree: {same}")
    for name, f in (("update", update), ("per-parameter loop", per_parameter),
                    ("_foreach_lerp_", fused)):
        for _ in range(20):
            f()
        if dev.type == "cuda":
            torch.cuda.synchronize()
        start = time.perf_counter()
        for _ in range(args.runs):
            f()
        if dev.type == "cuda":
            torch.cuda.synchronize()
        print(f"{name:>20}: {(time.perf_counter() - start) / args.runs * 1e3:.3f} ms")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
