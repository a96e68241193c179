"""--harp-concat-in-loop (HARP402): a tensor or array grown by concatenation in a loop.

Finds: `x = torch.cat([x, y])` (also `torch.stack`, `tf.concat`, `tf.stack`,
`np.concatenate`, `np.vstack`, `np.hstack`, `np.append`) inside a loop, where the result
is stored back into a slot that is also an input: every iteration copies everything
accumulated so far, so the loop is quadratic in its length.

Not reported when the loop reads the partial result elsewhere: then every iteration needs
it whole (autoregressive generation, dense blocks), and nothing can be deferred. Not at the
default level when the loop runs within each step of another (a model's `forward` joining
one piece per class): it joins one step's pieces, and quadratic copying adds up only over
a long loop (a pass over a data set's batches).

Assumes: the loop runs more than once.
"""

from __future__ import annotations

import libcst as cst

from harp_ir import callgraph
from harp_ir.analysis import (
    Assumption,
    describe_loop,
    does_model_work,
    enclosing_loop,
    few_iterations,
    loop_runs,
    loops_around,
    record_hint,
    same_op,
    string_attr,
    walk,
)
from harp_ir.codemods import Decline, node_at, syntax
from harp_ir.rules import Fix, HintSpec, Rule

HINT = "HARP402"
CONCATENATIONS = frozenset({
    "torch.cat", "torch.concat", "torch.stack", "torch.hstack", "torch.vstack",
    "tensorflow.concat", "tensorflow.stack", "numpy.concatenate", "numpy.vstack",
    "numpy.hstack", "numpy.stack", "numpy.append",
})


def _loaded_names(value) -> set[str]:
    """Names loaded directly as the elements of a list/tuple display (or the value)."""
    owner = value.owner
    if not hasattr(owner, "operation"):
        return set()
    op = owner.operation
    if op.name in ("host.list", "host.tuple"):
        return {n for v in op.operands for n in _loaded_names(v)}
    if op.name == "host.load":
        return {string_attr(op, "name")}
    return set()


def _read_elsewhere(name: str, concat, loop) -> bool:
    """Whether the loop reads `name` other than as an input of the concatenation: then each
    iteration needs the whole partial result (autoregressive generation feeds it to the
    model, a dense block to the next layer), and deferring the concatenation is wrong."""
    own = list(concat.operands)[1:]
    for o in walk(loop):
        if o.name != "host.load" or string_attr(o, "name") != name:
            continue
        if not all(use.owner.operation == concat or
                   (use.owner.operation.name in ("host.list", "host.tuple") and
                    any(use.owner.operation.result == v for v in own))
                   for use in o.result.uses):
            return True
    return False


def _step_around(loop) -> str:
    """The loop of batches or steps that runs `loop` on each of its iterations (around it,
    or through the calls of its function: a model's `forward` the training step calls),
    described; "" when `loop` is not inside another's step, so it is itself the long loop
    (a pass over a data set's batches) where quadratic copying adds up."""
    outer = next((o for o in loops_around(loop) if does_model_work(o)), None)
    if outer is not None:
        return describe_loop(outer)
    ctx = callgraph.per_step(loop, callgraph.training_work)
    if ctx is not None and ctx.chain and not same_op(ctx.loop, loop):
        return describe_loop(ctx.loop)
    return ""


def run(module, pass_=None) -> None:
    for op in walk(module):
        if op.name != "host.call" or string_attr(op, "qualname") not in CONCATENATIONS:
            continue
        loop = enclosing_loop(op)
        if loop is None or len(op.operands) < 2:
            continue
        inputs = {n for v in list(op.operands)[1:] for n in _loaded_names(v)}
        stored = {string_attr(use.owner.operation, "name") for use in op.result.uses
                  if use.owner.operation.name == "host.store"}
        grown = sorted(name for name in inputs & stored if not _read_elsewhere(name, op, loop))
        if not grown:
            continue
        name, what = grown[0], string_attr(op, "qualname")
        message = (f"`{name}` grows by `{what}` on every iteration of {describe_loop(loop)}, "
                   f"copying everything accumulated so far (quadratic in the loop length); "
                   f"append the pieces to a list and concatenate once after the loop")
        assumptions = [
            loop_runs(loop),
            Assumption("no-partial-use", name, "low", "proved",
                       "the loop reads the partial result only to concatenate to it"),
        ]
        assumptions += callgraph.loop_run_rate(loop)
        outer = _step_around(loop)
        if outer and not any(a.kind == "hot-loop" for a in assumptions):
            # blind readers judged a model's per-class joins (60 pieces in each episode of
            # a prototypical network's training) about 1% of the step: the copies add up
            # over a long loop, not over the pieces of one step
            assumptions.append(Assumption(
                "hot-loop", describe_loop(loop), "high", "speculated",
                f"the loop runs within each step of {outer}: it joins one step's pieces, "
                f"and their copies are small beside the step"))
        if not any(a.kind == "hot-loop" for a in assumptions) and (
                few_iterations(loop) or not does_model_work(loop)):
            # quadratic only matters over a long loop: over batches or model calls, not a
            # handful of pieces or a list of unknown length (blind readers of real code
            # found those loops a few items long)
            assumptions.append(Assumption(
                "hot-loop", describe_loop(loop), "high", "speculated",
                "the loop runs over batches or model calls, long enough for the copies to "
                "add up"))
        record_hint(op, HINT, message, assumptions)


# --- the fix ------------------------------------------------------------------------------

def fix_concat_in_loop(module, positions, hint):
    call = node_at(positions, hint.span, cst.Call)
    parents = syntax.parents(module)
    stmt, small, block, loop = syntax.loop_body_statement(call, parents)
    if not (isinstance(small, cst.Assign) and isinstance(small.targets[0].target, cst.Name)):
        raise Decline("only `acc = cat([acc, piece])` directly in the loop body is rewritten")
    acc = small.targets[0].target.value
    first = call.args[0].value if call.args else None
    if not (isinstance(first, (cst.List, cst.Tuple)) and len(first.elements) == 2 and
            isinstance(first.elements[0].value, cst.Name) and
            first.elements[0].value.value == acc and
            not isinstance(first.elements[1], cst.StarredElement)):
        raise Decline(f"the pieces are not `[{acc}, piece]` (only appending is rewritten)")
    others = [s for s in block.body if s is not stmt]
    if acc in syntax.names(others).loaded or acc in syntax.names(others).stored:
        raise Decline(f"`{acc}` is used elsewhere in the loop")
    syntax.keeps_running_value(module, loop, parents, acc)
    parts = syntax.fresh_name(module, f"{acc}_parts")
    piece = first.elements[1].value
    append = stmt.with_changes(body=[cst.Expr(cst.parse_expression(f"{parts}.append(x)")
                                              .with_changes(args=[cst.Arg(piece)]))])
    new_args = [call.args[0].with_changes(value=cst.Name(parts))] + list(call.args[1:])
    join = cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(cst.Name(acc))],
                                               call.with_changes(args=new_args))])
    loop_stmt, _ = syntax.statement_of(loop, parents)
    start = cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(cst.Name(parts))],
                                                cst.List([cst.Element(cst.Name(acc))]))],
                                    leading_lines=loop_stmt.leading_lines)
    new_loop = loop_stmt.deep_replace(stmt, append).with_changes(leading_lines=[])
    return module.deep_replace(loop_stmt, cst.FlattenSentinel([start, new_loop, join]))


RULE = Rule(
    flag="harp-concat-in-loop",
    summary="Find tensors and arrays grown by concatenation in loops (HARP402)",
    run=run,
    hint=HintSpec(
        id="HARP402",
        name="concat-in-loop",
        finds="`torch.cat`/`torch.stack`/`tf.concat`/`np.concatenate` accumulation inside a loop",
        why="every iteration copies everything accumulated so far, so the loop is quadratic in "
            "time and allocates a new tensor each step",
        refactoring="append the pieces to a list and concatenate once after the loop",
        before="out = torch.empty(0, d)\n"
               "for x in xs:\n"
               "    out = torch.cat([out, f(x)])\n",
        after="parts = []\n"
              "for x in xs:\n"
              "    parts.append(f(x))\n"
              "out = torch.cat(parts)\n",
        assumptions=("loop-runs", "no-partial-use", "hot-loop", "every-iteration"),
    ),
    fix=Fix(
        apply=fix_concat_in_loop,
        summary="safe",
        rewrite="`acc = cat([acc, piece])` becomes a list of parts and one concatenation after "
                "the loop",
        declines="`acc` is used elsewhere in the loop, read by a function or closure or by a "
                 "handler the loop can raise into, or the loop can return",
    ),
)
