"""--harp-loop-invariant (HARP301): a pure graph computation recomputed in every
iteration of a loop although all of its inputs are loop-invariant.

Finds: calls whose effect is `pure` and whose result is a tensor, inside a loop, with at
least one tensor input and every input invariant in the loop (constants, slots the loop
does not write, and pure computations of those). Only the outermost such computation of
an expression is reported.

Assumes: no input is mutated through an alias in the loop (speculated from the loop's
`harp.mutates`), the result is not mutated in place, and the computation really is pure
(from the API catalogue).
"""

from __future__ import annotations

from harp_ir.analysis import (
    FRESH_FACTORIES,
    Assumption,
    describe_loop,
    enclosing_loop,
    few_iterations,
    frequency,
    invariant_in,
    loop_mutates,
    receiver,
    record_hint,
    string_attr,
    value_kind,
    walk,
)
from harp_ir.codemods import hoist
from harp_ir.rules import Fix, HintSpec, Rule

HINT = "HARP301"


def _candidate(op, loop) -> bool:
    return (op.name == "host.call" and string_attr(op, "effect") == "pure"
            and string_attr(op, "harp.kind") == "tensor"
            and any(value_kind(v) == "tensor"
                    for v in [*op.operands, receiver(op)] if v is not None)
            and all(invariant_in(v, loop) for v in op.operands))


def _records_gradients(op, loop) -> bool:
    """Under a GradientTape, or in a loop that backpropagates: the computation must be
    recorded (or its graph rebuilt) every iteration, so hoisting it would change that."""
    parent = op.parent
    while parent is not None and parent != loop.parent:
        if parent.name == "host.with" and "harp.contexts" in parent.attributes and \
                "GradientTape" in str(parent.attributes["harp.contexts"]):
            return True
        parent = parent.parent
    return any(o.name == "host.call" and string_attr(o, "method") in ("backward", "gradient")
               for o in walk(loop))


def run(module, pass_=None) -> None:
    for op in walk(module):
        loop = enclosing_loop(op) if op.name == "host.call" else None
        if loop is None or not _candidate(op, loop) or _records_gradients(op, loop):
            continue
        users = [use.owner.operation for use in op.result.uses]
        if any(_candidate(u, loop) for u in users if u.name == "host.call"):
            continue  # the enclosing computation is reported instead
        if string_attr(op, "qualname") in FRESH_FACTORIES and any(
                u.name in ("host.append", "host.list", "host.tuple", "host.setitem")
                or u.name == "host.call" for u in users):
            continue  # `[torch.zeros_like(t) for _ in ...]`: each element must be its own
        stored = [string_attr(u, "name") for u in users if u.name == "host.store"]
        if any(loop_mutates(loop) & {n} and _mutated_in_place(loop, n) for n in stored):
            continue
        what = string_attr(op, "qualname") or "the computation"
        target = f" (`{stored[0]}`)" if stored else ""
        message = (f"`{what}`{target} computes the same tensor on every iteration of "
                   f"{describe_loop(loop)}: its inputs do not change in the loop; hoist it "
                   f"into a variable before the loop")
        assumptions = [
            Assumption("pure", what, "low", "proved", "the API catalogue marks it pure"),
            Assumption("no-alias", describe_loop(loop), "medium", "speculated",
                       "no input is changed through another name in the loop"),
        ]
        how_often = frequency(op, loop).assumption(loop)
        if how_often:
            assumptions.append(how_often)
        if few_iterations(loop):
            assumptions.append(Assumption(
                "hot-loop", describe_loop(loop), "high", "speculated",
                "a handful of iterations (a constant range): hoisting saves little"))
        record_hint(op, HINT, message, assumptions)


def _mutated_in_place(loop, name: str) -> bool:
    for op in walk(loop):
        if op.name == "host.call" and string_attr(op, "effect") == "mutate" and \
                string_attr(op, "harp.receiver").split(".")[0] == name:
            return True
        if op.name == "host.binop" and "inplace" in op.attributes and any(
                string_attr(u.owner.operation, "name") == name for u in op.result.uses):
            return True
    return False


RULE = Rule(
    flag="harp-loop-invariant",
    summary="Find pure tensor computations with loop-invariant inputs (HARP301)",
    run=run,
    hint=HintSpec(
        id="HARP301",
        name="loop-invariant-graph-computation",
        finds="a pure graph computation in a loop whose inputs are all loop-invariant",
        why="the same result is computed again on every iteration",
        refactoring="hoist it out of the loop",
        before="for x in xs:\n"
               "    y = x @ torch.linalg.inv(W)\n",
        after="W_inv = torch.linalg.inv(W)\n"
              "for x in xs:\n"
              "    y = x @ W_inv\n",
        assumptions=("tensor", "pure", "no-alias", "hot-loop", "every-iteration"),
    ),
    fix=Fix(
        apply=hoist.fix_loop_invariant,
        summary="safe",
        rewrite="the invariant computation moves before the loop: the whole `name = ...` "
                "statement, or the sub-expression into a new variable",
        declines="as HARP202",
    ),
)
