"""--harp-feed-invariant (HARP203): `feed_dict` values that do not change across
iterations.

Finds: `Session.run(..., feed_dict={ph: value})` inside a loop where a fed value is
loop-invariant: the same host data is copied into the graph every step. Invariant data
belongs in the graph (a constant or variable), streaming data in `tf.data`.

Assumes: the fed value is not changed through an alias in the loop.
"""

from __future__ import annotations

from harp_ir.analysis import (
    SESSION_RUN,
    Assumption,
    call_arguments,
    describe_loop,
    enclosing_loop,
    invariant_in,
    record_hint,
    string_attr,
    value_name,
    walk,
)

HINT = "HARP203"


def _feed(op):
    for i, (k, v) in enumerate(call_arguments(op)):
        if k == "feed_dict" or (k == "" and i == 1):
            return v
    return None


def run(module, pass_=None) -> None:
    for op in walk(module):
        if op.name != "host.call" or string_attr(op, "qualname") != SESSION_RUN:
            continue
        loop = enclosing_loop(op)
        feed = _feed(op)
        if loop is None or feed is None or not hasattr(feed.owner, "operation"):
            continue
        display = feed.owner.operation
        if display.name != "host.dict":
            continue
        entries = list(display.operands)
        fixed = [(k, v) for k, v in zip(entries[::2], entries[1::2], strict=True)
                 if invariant_in(v, loop)]
        if not fixed:
            continue
        names = ", ".join(f"`{value_name(v) or 'a value'}`" for _, v in fixed)
        message = (f"{names} fed through `feed_dict` on every iteration of "
                   f"{describe_loop(loop)} does not change in the loop: the same data is "
                   f"copied into the graph each step; make it a constant or variable (or "
                   f"stream changing data with `tf.data`)")
        record_hint(op, HINT, message, [
            Assumption("no-alias", names, "medium", "speculated",
                       "the fed value is not changed through another name in the loop"),
        ])
