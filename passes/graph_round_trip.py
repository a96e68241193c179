"""--harp-graph-round-trip (HARP204): a tensor taken to the host, computed on, and
turned back into a tensor inside a loop.

Finds: a crossing into the framework (`torch.tensor`, `torch.from_numpy`, `tf.constant`,
`tf.convert_to_tensor`) inside a loop whose input was computed, in the same iteration,
from a crossing to the host (`.numpy()`, `.item()`, `.tolist()`, `.cpu()`): two
crossings and a Python/numpy computation that framework ops would do on the device.

Assumes: the host computation has a framework equivalent (numpy arithmetic and
reductions do), and the tensor was on a device: torch's `.numpy()` works only on a CPU
tensor, so a round trip starting there crosses nothing (a high-risk speculation).
"""

from __future__ import annotations

from harp_ir import callgraph
from harp_ir.analysis import (
    Assumption,
    does_model_work,
    enclosing_loop,
    frequency,
    record_hint,
    same_op,
    string_attr,
    walk,
)
from harp_ir.rules import HintSpec, Rule

HINT = "HARP204"
_VIEW = "\0view"  # marks a source that only views a CPU tensor (torch's `.numpy()`)


def _crossing(op) -> str:
    """"host" for a call that makes a host value of a tensor (a sync, or torch's `.numpy()`
    view), "graph" for one that makes a tensor of a host value (a transfer, or
    `torch.from_numpy`), else ""."""
    effect = string_attr(op, "effect")
    if effect == "view":
        return "graph" if string_attr(op, "harp.kind") == "tensor" else "host"
    return {"sync": "host", "transfer": "graph"}.get(effect, "")


def _from_sync(value, loop, stored: dict, depth: int = 0) -> str:
    """The sync (as `x.numpy()`) that `value` derives from within the loop, or ""."""
    owner = value.owner
    if depth > 12 or not hasattr(owner, "operation"):
        return ""
    op = owner.operation
    if op.name == "host.call" and _crossing(op) == "host":
        text = f"{string_attr(op, 'harp.receiver') or 'a tensor'}.{string_attr(op, 'method')}()"
        if string_attr(op, "effect") != "view":
            return text
        # `t.cpu().numpy()`: the sync before the view is the crossing
        earlier = next((f for v in op.operands if (f := _from_sync(v, loop, stored, depth + 1))
                        and not f.endswith(_VIEW)), "")
        return earlier or text + _VIEW
    if op.name == "host.load":
        for v in stored.get(string_attr(op, "name"), []):
            found = _from_sync(v, loop, stored, depth + 1)
            if found:
                return found
        return ""
    if op.name in ("host.binop", "host.unop", "host.getitem", "host.call", "host.list",
                   "host.tuple", "host.getattr"):
        for v in op.operands:
            found = _from_sync(v, loop, stored, depth + 1)
            if found:
                return found
    return ""


def run(module, pass_=None) -> None:
    for op in walk(module):
        if op.name != "host.call" or _crossing(op) != "graph":
            continue
        loop = enclosing_loop(op)
        if loop is None:
            continue
        stored: dict[str, list] = {}
        for o in walk(loop):
            if o.name == "host.store":
                stored.setdefault(string_attr(o, "name"), []).append(o.operands[0])
        source = next((s for v in list(op.operands)[1:]
                       if (s := _from_sync(v, loop, stored))), "")
        if not source:
            continue
        on_host = source.endswith(_VIEW)
        source = source.removesuffix(_VIEW)
        what = string_attr(op, "qualname")
        # how often the round trip runs: in the loop of model work that runs it most often
        # (guards on the way count: a loss reduced for a log line every 100 steps), else
        # in its own loop
        ctx = callgraph.per_step(op, does_model_work)
        if ctx is not None:
            phrase, often = ctx.phrase(op), ctx.frequency_assumptions()
        else:
            phrase, often = frequency(op, loop).phrase(loop), callgraph.run_rate(op, loop)
        message = (f"`{source}` takes a tensor to the host, the result is computed on in "
                   f"Python/numpy and turned back into a tensor by `{what}` {phrase}; keep "
                   f"the computation in framework ops on the device")
        assumptions = [Assumption("framework-equivalent", what, "low", "speculated",
                                  "the host computation has a framework op equivalent"),
                       *often]
        if on_host:  # torch's `.numpy()` works only on a CPU tensor: no device round trip
            assumptions.append(Assumption(
                "accelerator", source, "high", "speculated",
                f"`{source}` only works on a tensor already on the CPU: nothing crosses "
                f"from a device, only numpy's work would move to the framework"))
        record_hint(op, HINT, message, assumptions,
                    related=[ctx.site] if ctx is not None and not same_op(ctx.site, op)
                    else [])


RULE = Rule(
    flag="harp-graph-round-trip",
    summary="Find tensor -> host -> tensor round trips in loops (HARP204)",
    run=run,
    hint=HintSpec(
        id="HARP204",
        name="graph-round-trip",
        finds="a tensor taken to numpy/Python, computed on, and turned back into a tensor in a "
              "loop",
        why="the value leaves the device, is computed on by numpy or Python, and is copied back:"
            " two transfers and a sync per iteration",
        refactoring="keep the computation in framework ops",
        before="for x in xs:\n"
               "    a = model(x).detach().numpy()\n"
               "    t = torch.from_numpy(a * 2)\n",
        after="for x in xs:\n"
              "    t = model(x).detach() * 2\n",
        assumptions=("tensor", "framework-equivalent", "accelerator", "every-iteration",
                     "hot-loop"),
    ),
)
