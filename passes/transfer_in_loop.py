"""--harp-transfer-in-loop (HARP202): a loop-invariant value converted or moved to the
device inside a loop.

Finds: calls whose effect is `transfer` (`.to(device)`, `.cuda()`, `torch.tensor(a)`,
`tf.convert_to_tensor`, `tf.constant`; not `torch.from_numpy`, which shares the array's
memory) inside a loop, all of whose
operands are loop-invariant: the same host data crosses to the device every iteration.

Assumes: the source is not mutated through an alias inside the loop (the loop's
`harp.mutates` set is speculated), and the loop runs more than once.
"""

from __future__ import annotations

from harp_ir.analysis import (
    Assumption,
    describe_loop,
    enclosing_loop,
    few_iterations,
    frequency,
    invariant_in,
    loop_runs,
    record_hint,
    runs_inner_loop,
    string_attr,
    value_name,
    walk,
)
from harp_ir.codemods import hoist
from harp_ir.rules import Fix, HintSpec, Rule

HINT = "HARP202"


def run(module, pass_=None) -> None:
    for op in walk(module):
        if op.name != "host.call" or string_attr(op, "effect") != "transfer":
            continue
        loop = enclosing_loop(op)
        if loop is None or not all(invariant_in(v, loop) for v in op.operands):
            continue
        what = string_attr(op, "qualname") or "the conversion"
        recv = string_attr(op, "harp.receiver")
        source = recv or next((value_name(v) for v in list(op.operands)[1:] if value_name(v)),
                              "its input")
        message = (f"`{source}` is moved to the device (`{what}`) on every iteration of "
                   f"{describe_loop(loop)} but does not change in the loop; convert it "
                   f"once before the loop and reuse the result")
        assumptions = [
            Assumption("no-alias", source, "medium", "speculated",
                       "the loop does not change it through another name"),
            loop_runs(loop),
        ]
        how_often = frequency(op, loop).assumption(loop)
        if how_often:
            assumptions.append(how_often)
        if runs_inner_loop(loop, op) or few_iterations(loop):
            assumptions.append(Assumption(
                "hot-loop", describe_loop(loop), "high", "speculated",
                "the loop runs an inner loop (once per epoch) or a handful of times"))
        record_hint(op, HINT, message, assumptions)


RULE = Rule(
    flag="harp-transfer-in-loop",
    summary="Find loop-invariant host-to-device transfers in loops (HARP202)",
    run=run,
    hint=HintSpec(
        id="HARP202",
        name="transfer-in-loop",
        finds="`.to(device)`, `.cuda()`, `torch.tensor(array)`, `tf.convert_to_tensor` of a "
              "loop-invariant value inside a loop",
        why="the same data is copied (host to device, or into a new tensor) on every iteration",
        refactoring="convert once before the loop and reuse the result",
        before="for step in range(n):\n"
               "    w = torch.tensor(weights)\n"
               "    y = x @ w\n",
        after="w = torch.tensor(weights)\n"
              "for step in range(n):\n"
              "    y = x @ w\n",
        assumptions=("no-alias", "loop-runs", "hot-loop", "every-iteration"),
    ),
    fix=Fix(
        apply=hoist.fix_loop_invariant,
        summary="safe (guarded by the loop's `range` or list when the loop may run zero times); "
                "unsafe for a loop of unknown length",
        rewrite="a loop-invariant conversion moves before the loop, through nested loops "
                "(under `if range(n):`, or `if items:` for a list, when the loop may run zero "
                "times)",
        declines="the target is read before it is assigned or assigned twice in the loop; the "
                 "code runs only under a condition, short-circuit, handler or inner loop, or "
                 "after a `continue`/`break`/`return`/`raise` (before the loop it would run when"
                 " the original does not); a name it reads is rebound by a function's `global`",
    ),
)
