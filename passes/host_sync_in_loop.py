"""--harp-host-sync-in-loop (HARP201): a tensor turned into a host value inside a loop.

Finds: ops whose effect is `sync` (from the API catalogue: `Tensor.item`, `.numpy()`,
`.cpu()`, `.tolist()`; from the frontend: `float(t)`/`int(t)`/`bool(t)` and `host.truth`
of a tensor condition) nested in a `host.for` or `host.while` of the same scope.

How: every such op blocks the host until the device has produced the value, so the loop
cannot run ahead of the device. The frontend decided which values are tensors; this pass
only reads the effects and facts recorded on the IR.

Assumes: the value is a tensor (proved or speculated, as the frontend recorded), the
loop runs more than once, and the benefit needs an asynchronous device (on a CPU the sync
is cheap, but `.item()` still forces a dispatch). A sync in a loop that also runs an inner
loop (an epoch loop logging once per epoch) rests on a high-risk "hot-loop" assumption,
so it is reported only at the aggressive level.
"""

from __future__ import annotations

from harp_ir.analysis import (
    LOOPS,
    Assumption,
    describe_loop,
    enclosing_loop,
    loop_runs,
    record_hint,
    string_attr,
    walk,
)

HINT = "HARP201"
_SYNC_OPS = ("host.call", "host.truth")


def _subject(op) -> str:
    return string_attr(op, "harp.receiver") or "the value"


def _what(op) -> str:
    method = string_attr(op, "method")
    if method:
        return f"`{_subject(op)}.{method}()`"
    qualname = string_attr(op, "qualname").removeprefix("builtins.")
    return f"`{qualname}({_subject(op)})`"


def _message(op, loop) -> str:
    subject, where = _subject(op), describe_loop(loop)
    if op.name == "host.truth":
        return (f"the condition `{subject}` is a tensor: testing it copies it to the host and "
                f"waits for the device on every iteration of {where}; test it on the device "
                f"less often (every N steps) or once after the loop")
    return (f"{_what(op)} copies `{subject}` to the host and waits for the device on every "
            f"iteration of {where}; keep it on the device (accumulate with tensor ops) and "
            f"convert once after the loop")


def _contains(outer, op) -> bool:
    parent = op.parent
    while parent is not None:
        if parent == outer:
            return True
        parent = parent.parent
    return False


def run(module, pass_=None) -> None:
    for op in walk(module):
        if op.name not in _SYNC_OPS or string_attr(op, "effect") != "sync":
            continue
        loop = enclosing_loop(op)
        if loop is None:
            continue
        subject = _subject(op)
        reason = string_attr(op, "harp.receiver_reason")
        assumptions = [
            Assumption("tensor", subject, "medium" if reason else "low",
                       "speculated" if reason else "proved", reason),
            loop_runs(loop),
            Assumption("accelerator", "", "low", "speculated",
                       "the sync costs most when the tensor lives on a GPU"),
        ]
        if any(inner.name in LOOPS and enclosing_loop(inner) == loop and
               not _contains(inner, op) for inner in walk(loop)):
            assumptions.append(Assumption(
                "hot-loop", describe_loop(loop), "high", "speculated",
                "the loop also runs an inner loop, so it may run only a few times "
                "(once per epoch)"))
        message = _message(op, loop)
        record_hint(op, HINT, message, assumptions)
