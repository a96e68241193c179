"""--harp-split-session-runs (HARP104): several `Session.run` calls in one iteration.

Finds: two or more runs in a row (`sess.run(...)`, or `tensor.eval(feed)`) in one block of
an iteration: a loop's body, a branch in it, or the body of a function or method a loop
calls (through up to four calls). Each `run` is a round trip into the TF runtime that
re-evaluates the shared part of the graph; one `run` with all fetches evaluates it once.
A run that changes variables (an optimizer step, an `assign`) is never merged with the
reads around it (merged, the read races with the update), nor is one that feeds what an
earlier run fetched (`q = sess.run(q_eval)`, then a target built from `q` is fed).

Assumes: the runs are independent (medium risk), and what merging saves is worth a
change: blind readers of real TF1 agents and GANs judged it a few percent of a step, so
the hint rests on a high-risk `step-share` speculation and shows at the aggressive level.
"""

from __future__ import annotations

from harp_ir import callgraph
from harp_ir.analysis import (
    SESSION_RUN,
    Assumption,
    definition,
    describe_loop,
    enclosing_loop,
    enclosing_scope,
    few_iterations,
    frequency,
    producer,
    reads_names,
    record_hint,
    same_op,
    string_attr,
    walk,
)
from harp_ir.rules import HintSpec, Rule

HINT = "HARP104"


def run(module, pass_=None) -> None:
    for op in walk(module):
        for block in _blocks(op):
            runs = [o.operation for o in block.operations
                    if o.operation.name == "host.call" and _is_run(o.operation)]
            for group in _mergeable(runs):
                _report(group)


def _blocks(op):
    """The blocks whose statements run one after another on an iteration: a loop's body,
    a branch or `with` inside a loop, and the body of a function (one a loop calls)."""
    if op.name == "host.for":
        return [op.regions[0].blocks[0]]
    if op.name == "host.while":
        return [op.regions[1].blocks[0]]
    if op.name in ("host.if", "host.with", "host.func"):
        return [r.blocks[0] for r in op.regions if len(r.blocks)]
    return []


def _is_run(call) -> bool:
    """`sess.run(...)`, or `tensor.eval(feed)`: one round trip into the TF1 runtime."""
    return string_attr(call, "qualname") == SESSION_RUN or (
        string_attr(call, "effect") == "run" and string_attr(call, "method") == "eval")


def _mergeable(runs):
    """Runs in a row that one `run` could do: each after the first neither follows a run
    that changes variables (it reads the update) nor feeds what an earlier one fetched."""
    groups, current = [], []
    for r in runs:
        if _runs_training(r):  # a read merged with an update races with it
            groups.append(current)
            current = []
            continue
        if current and _feeds_fetched(r, current):
            groups.append(current)
            current = []
        current.append(r)
    groups.append(current)
    return [g for g in groups if len(g) > 1]


def _feeds_fetched(later, earlier) -> bool:
    """Whether `later` reads a name an earlier run's result was bound to (`v_ =
    sess.run(v)`, then `feed_dict={v_ph: v_}`): it needs that run's answer first."""
    fetched = set()
    for r in earlier:
        values = [r.result]
        while values:
            for use in values.pop().uses:
                owner = use.owner.operation if hasattr(use.owner, "operation") else use.owner
                if owner.name == "host.store":
                    fetched.add(string_attr(owner, "name"))
                elif owner.name == "host.unpack":
                    values.extend(owner.results)
    # and names computed from those before `later` (`q_target = q_eval.copy()`)
    block, at = later.block, later
    for o in block.operations:
        o = o.operation
        if same_op(o, at):
            break
        for inner in [o, *walk(o)]:
            if inner.name == "host.store" and inner.operands and \
                    reads_names(inner.operands[0], fetched):
                fetched.add(string_attr(inner, "name"))
            elif inner.name in ("host.setitem", "host.setattr") and any(
                    reads_names(v, fetched) for v in inner.operands):
                target = producer(inner.operands[0])
                if target is not None and target.name == "host.load":
                    fetched.add(string_attr(target, "name"))
    return any(reads_names(v, fetched) for v in later.operands)


def _report(group) -> None:
    later = group[1]
    loop = enclosing_loop(later)
    chain = ""
    if loop is None:  # a function's body: the loops that call it, through up to 3 calls
        ctx = callgraph.per_step(later, lambda lp: True)
        if ctx is None:
            return
        loop, how_often, chain = ctx.loop, ctx.how_often, " (through " + ", ".join(
            f"`{callgraph.function_name(f)}`" for f in ctx.chain) + ")"
    else:
        how_often = frequency(later, loop)
    message = (f"{len(group)} `Session.run`/`.eval()` calls in a row "
               f"{how_often.phrase(loop)}{chain}; fetch everything in one "
               f"`sess.run([...], feed_dict)` so the shared graph runs once")
    if few_iterations(loop):
        independent = Assumption(
            "independent-runs", describe_loop(loop), "high", "speculated",
            "a handful of iterations (a constant range): merging saves little")
    else:
        independent = Assumption(
            "independent-runs", describe_loop(loop), "medium", "speculated",
            "no run in the row changes variables the next one reads, nor feeds what an "
            "earlier one fetched")
    guard = how_often.assumption(loop)
    # blind readers of real TF1 programs judged a merge of reads at most debatable: one
    # round trip and a repeated forward saved, about 5-10% of a step
    share = Assumption("step-share", describe_loop(loop), "high", "speculated",
                       "merging the runs saves one round trip into the runtime and the "
                       "repeated part of the graph: a few percent of a step")
    record_hint(later, HINT, message, [independent, share] + ([guard] if guard else []),
                related=[r for r in group if not same_op(r, later)])


def _runs_training(run) -> bool:
    """Whether a `Session.run` fetches an optimizer step (`opt.minimize(...)`, `train_op`,
    a name holding one), directly or in a fetch list."""
    fetched = list(run.operands)[1:2]
    seen = 0
    while fetched and seen < 32:
        seen += 1
        value = fetched.pop()
        op = producer(value)
        if op is None:
            continue
        if op.name == "host.load":
            made = definition(value, enclosing_scope(op))
            if made is not None and made.name == "host.call" and \
                    string_attr(made, "method") in _UPDATES:
                return True
            if any(w in string_attr(op, "name").lower() for w in
                   ("train", "optim", "step", "update", "assign")):
                return True
        elif op.name in ("host.list", "host.tuple"):
            fetched.extend(op.operands)
        elif op.name == "host.call" and string_attr(op, "method") in _UPDATES:
            return True
    return False


#: methods whose op changes variables when run: a later run may read the new values
_UPDATES = ("minimize", "apply_gradients", "assign", "assign_add", "assign_sub")


RULE = Rule(
    flag="harp-split-session-runs",
    summary="Find several Session.run calls per iteration (HARP104)",
    run=run,
    hint=HintSpec(
        id="HARP104",
        name="split-session-runs",
        finds="several `Session.run` calls in one iteration whose fetches share a subgraph",
        why="each `run` feeds the inputs again and recomputes the shared subgraph",
        refactoring="one `run` with all fetches",
        before="sess.run(train_op, feed)\n"
               "l = sess.run(loss, feed)\n",
        after="_, l = sess.run([train_op, loss], feed)\n",
        assumptions=("independent-runs", "every-iteration", "step-share"),
    ),
)
