"""--harp-loop-invariant (HARP301): a pure graph computation recomputed in every
iteration of a loop although all of its inputs are loop-invariant.

Finds: calls whose effect is `pure` and tensor operators (`W.T @ W / n`) whose result is
a tensor (not a view of one, `x[:-1].view(-1, d)`, which runs no kernel), inside a loop,
with at least one tensor input and every input invariant in the loop: constants, slots
the loop does not write, pure computations of those, and slots the loop sets once, on
every iteration before the read, from such values (reaching definitions: `w_inv =
inv(W)` then `proj = w_inv @ V` is one invariant chain). Only the outermost computation
of an expression is reported, and a chain once, at its last computation, with the
statements it reads (`moves`) for the fix to move in order.

Assumes: no input is mutated through an alias in the loop (speculated from the loop's
`harp.mutates`), the result is not mutated in place, and the computation really is pure
(from the API catalogue). Not in a function compiled to a graph (`tf.function`,
`torch.compile`): its Python loops run when it is traced, and the graph they unroll into
is the graph optimizer's to simplify.
"""

from __future__ import annotations

from harp_ir import callgraph, catalogue
from harp_ir.analysis import (
    FRESH_FACTORIES,
    Assumption,
    chain_stores,
    describe_loop,
    enclosing_loop,
    few_iterations,
    in_compiled_function,
    invariant_in,
    loop_mutates,
    loop_runs,
    receiver,
    record_hint,
    runs_tf1_sessions,
    span,
    string_attr,
    strings_attr,
    value_kind,
    value_name,
    walk,
)
from harp_ir.codemods import hoist
from harp_ir.rules import Fix, HintSpec, Rule

HINT = "HARP301"


#: what the loop computes that can be hoisted: pure calls and tensor operators
_COMPUTATIONS = ("host.call", "host.binop", "host.unop")


def _candidate(op, loop) -> bool:
    if op.name == "host.call" and string_attr(op, "qualname") in catalogue.load().views:
        return False  # a view runs no kernel: hoisting it saves microseconds of Python
    if op.name == "host.call":
        computes = string_attr(op, "effect") == "pure" and any(
            value_kind(v) == "tensor" for v in [*op.operands, receiver(op)] if v is not None)
    else:
        computes = op.name in _COMPUTATIONS and "inplace" not in op.attributes
    return (computes and string_attr(op, "harp.kind") == "tensor"
            and all(invariant_in(v, loop) for v in op.operands))


_SYMBOLS = {"add": "+", "sub": "-", "mul": "*", "truediv": "/", "floordiv": "//", "mod": "%",
            "pow": "**", "matmul": "@", "neg": "-", "pos": "+", "invert": "~"}


def _what(op) -> str:
    """`torch.linalg.inv`, or an operator as its names show it (`w_inv @ V`)."""
    if op.name == "host.call":
        return f"`{string_attr(op, 'qualname') or 'the computation'}`"
    symbol = _SYMBOLS.get(string_attr(op, "op"), string_attr(op, "op"))
    names = [value_name(v) or "(...)" for v in op.operands]
    return f"`{symbol}{names[0]}`" if len(names) == 1 else f"`{f' {symbol} '.join(names)}`"


def _records_gradients(op, loop) -> bool:
    """Under a GradientTape, or in a loop that backpropagates: the computation must be
    recorded (or its graph rebuilt) every iteration, so hoisting it would change that."""
    parent = op.parent
    while parent is not None and parent != loop.parent:
        if parent.name == "host.with" and \
                any("GradientTape" in c for c in strings_attr(parent, "harp.contexts")):
            return True
        parent = parent.parent
    return any(o.name == "host.call" and string_attr(o, "method") in ("backward", "gradient")
               for o in walk(loop))


def _builds_tf1_graph(op, loop) -> bool:
    """A TensorFlow computation in a loop of a TF1 program that runs no session (an
    optimizer's loop over the variables, building each one's update): the loop builds
    graph nodes once, and hoisting changes the graph's size, not what a step computes
    (Grappler merges duplicate nodes)."""
    return string_attr(op, "harp.framework") == "tf" and runs_tf1_sessions(op) and \
        not callgraph.runs_session(loop)


def _findings(module) -> list[tuple]:
    """(op, loop, the stores of the chain it reads) for each invariant computation."""
    found = []
    for op in walk(module):
        loop = enclosing_loop(op) if op.name in _COMPUTATIONS else None
        if loop is None or in_compiled_function(loop) or not _candidate(op, loop) or \
                _records_gradients(op, loop) or _builds_tf1_graph(op, loop):
            continue  # (in a `tf.function`, the loop runs once, when traced, into a graph)
        users = [use.owner.operation for use in op.result.uses]
        if any(_candidate(u, loop) for u in users if u.name in _COMPUTATIONS):
            continue  # the enclosing computation is reported instead
        if string_attr(op, "qualname") in FRESH_FACTORIES and any(
                u.name in ("host.append", "host.list", "host.tuple", "host.setitem")
                or u.name == "host.call" for u in users):
            continue  # `[torch.zeros_like(t) for _ in ...]`: each element must be its own
        stored = [string_attr(u, "name") for u in users if u.name == "host.store"]
        if any(loop_mutates(loop) & {n} and _mutated_in_place(loop, n) for n in stored):
            continue
        chain = [s for v in op.operands for s in chain_stores(v, loop)]
        found.append((op, loop, list(dict.fromkeys(chain))))
    return found


def run(module, pass_=None) -> None:
    findings = _findings(module)
    # a computation stored into a chain another finding moves is reported there
    moved = {store for _, _, chain in findings for store in chain}
    for op, loop, chain in findings:
        users = [use.owner.operation for use in op.result.uses]
        if any(u in moved for u in users):
            continue
        stored = [string_attr(u, "name") for u in users if u.name == "host.store"]
        what = _what(op)
        target = f" (`{stored[0]}`)" if stored else ""
        reads = ", ".join(f"`{string_attr(s, 'name')}` (line {span(s.location).line})"
                          for s in chain if span(s.location))
        message = (f"{what}{target} computes the same tensor on every iteration of "
                   f"{describe_loop(loop)}: its inputs do not change in the loop; hoist it "
                   f"into a variable before the loop" + (
                       f", with the invariant statements it reads: {reads}" if reads else ""))
        assumptions = [
            Assumption("pure", what.strip("`"), "low", "proved",
                       "the API catalogue marks it pure" if op.name == "host.call" else
                       "an operator on tensors computes a new tensor"),
            Assumption("no-alias", describe_loop(loop), "medium", "speculated",
                       "no input is changed through another name in the loop"),
            loop_runs(loop),
        ]
        assumptions += callgraph.run_rate(op, loop)
        if few_iterations(loop):
            assumptions.append(Assumption(
                "hot-loop", describe_loop(loop), "high", "speculated",
                "a handful of iterations (a constant range): hoisting saves little"))
        record_hint(op, HINT, message, assumptions,
                    moves=[s.operands[0].owner.operation for s in chain])


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
        finds="a pure graph computation in a loop whose inputs are all loop-invariant (a "
              "view, `x[:-1].view(-1, d)`, runs no kernel and is not one)",
        why="the same result is computed again on every iteration",
        refactoring="hoist it out of the loop",
        before="for x in xs:\n"
               "    y = x @ torch.linalg.inv(W)\n",
        after="W_inv = torch.linalg.inv(W)\n"
              "for x in xs:\n"
              "    y = x @ W_inv\n",
        assumptions=("tensor", "pure", "no-alias", "loop-runs", "hot-loop", "every-iteration"),
    ),
    fix=Fix(
        apply=hoist.fix_loop_invariant,
        summary="safe (guarded by the loop's `range` or list when the loop may run zero times); "
                "unsafe for a loop of unknown length",
        rewrite="the invariant computation moves before the loop: the whole `name = ...` "
                "statement, or the sub-expression into a new variable, with the invariant "
                "statements it reads, in order (`w_inv = inv(W)` then `proj = w_inv @ V`); "
                "when the program does not show the loop runs (`range(100)`, `range(0, n, b)` "
                "with constant `n`, `max(1, ...)`, a display, `while True`), the moved code "
                "runs under the loop's zero-trip test `if range(n):` (`if items:` for a name "
                "bound once to a list); a loop of unknown length "
                "over something else needs `--unsafe-fixes` or `--assume loop-runs`",
        declines="as HARP202",
    ),
)
