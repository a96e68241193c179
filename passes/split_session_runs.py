"""--harp-split-session-runs (HARP104): several `Session.run` calls in one iteration.

Finds: two or more `Session.run` calls in the same block of a loop body. Each `run` is a
round trip into the TF runtime that re-evaluates the shared part of the graph (the
forward pass of `train_op` and `loss`, say); one `run` with all fetches evaluates it once.

Assumes: the later run does not need the side effects of the earlier one (a loss fetched
in the same run as the train op is computed before the update, not after).
"""

from __future__ import annotations

from harp_ir.analysis import (
    SESSION_RUN,
    Assumption,
    describe_loop,
    enclosing_loop,
    record_hint,
    string_attr,
    walk,
)

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
        for later in runs[1:]:
            loop = enclosing_loop(later)
            message = (f"`Session.run` is called {len(runs)} times per iteration of "
                       f"{describe_loop(loop)}; fetch everything in one "
                       f"`sess.run([...], feed_dict)` so the shared graph runs once")
            record_hint(later, HINT, message, [
                Assumption("independent-runs", describe_loop(loop), "medium", "speculated",
                           "no run needs the updates made by an earlier run"),
            ])
