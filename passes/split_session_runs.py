"""--harp-split-session-runs (HARP104): several `Session.run` calls in one iteration.

Finds: two or more `Session.run` calls in the same block of a loop body. Each `run` is a
round trip into the TF runtime that re-evaluates the shared part of the graph (the
forward pass of `train_op` and `loss`, say); one `run` with all fetches evaluates it once.

Assumes: the later run does not need the side effects of the earlier one (a loss fetched
in the same run as the train op is computed before the update, not after). When a run in
the iteration fetches an optimizer step or an `assign`, that is a high-risk speculation,
and so is merging in a loop of a handful of iterations.
"""

from __future__ import annotations

from harp_ir.analysis import (
    SESSION_RUN,
    Assumption,
    definition,
    describe_loop,
    enclosing_loop,
    enclosing_scope,
    few_iterations,
    producer,
    record_hint,
    string_attr,
    walk,
)
from harp_ir.rules import HintSpec, Rule

HINT = "HARP104"


def run(module, pass_=None) -> None:
    for op in walk(module):
        if op.name not in ("host.for", "host.while"):
            continue
        body = op.regions[0 if op.name == "host.for" else 1].blocks[0]
        # `sess.run(a)` and `x = sess.run(b)` both put the call itself in the body block
        runs = [o.operation for o in body.operations
                if o.operation.name == "host.call" and string_attr(o.operation,
                                                                   "qualname") == SESSION_RUN]
        trains = next((r for r in runs if _runs_training(r)), None)
        for later in runs[1:]:
            loop = enclosing_loop(later)
            message = (f"`Session.run` is called {len(runs)} times per iteration of "
                       f"{describe_loop(loop)}; fetch everything in one "
                       f"`sess.run([...], feed_dict)` so the shared graph runs once")
            if few_iterations(op):
                independent = Assumption(
                    "independent-runs", describe_loop(loop), "high", "speculated",
                    "a handful of iterations (a constant range): merging saves little")
            elif trains is not None:
                independent = Assumption(
                    "independent-runs", describe_loop(loop), "high", "speculated",
                    "a run in the iteration applies an optimizer step, so a later run may "
                    "read the updated variables (merged, it would read them before)")
            else:
                independent = Assumption(
                    "independent-runs", describe_loop(loop), "medium", "speculated",
                    "no run needs the updates made by an earlier run")
            record_hint(later, HINT, message, [independent])


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
        assumptions=("independent-runs",),
    ),
)
