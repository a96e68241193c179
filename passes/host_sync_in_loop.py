"""--harp-host-sync-in-loop (HARP201): a tensor turned into a host value inside a loop.

Finds: ops whose effect is `sync` (from the API catalogue: `Tensor.item`, `.cpu()`,
`.tolist()`, TF's `.numpy()`, not torch's `.numpy()`, which only works on a CPU tensor and
waits for nothing; from the frontend: `float(t)`/`int(t)`/`bool(t)` and `host.truth` of a
tensor condition) nested in a `host.for` or `host.while` of the same scope. One problem is
one hint: in `t.cpu().item()` only the first sync waits.

How: every such op blocks the host until the device has produced the value, so the loop
cannot run ahead of the device. The frontend decided which values are tensors; this pass
reads the effects and facts recorded on the IR and the shared facts of analysis.py: how
often the statement runs (a guard such as `step % 100 == 0`), whether the file can use an
accelerator at all, and whether the value only feeds a print or a logger.

Assumes: the value is a tensor (proved or speculated, as the frontend recorded), the
loop runs more than once, and the benefit needs an asynchronous device. High-risk
speculations, shown only at the aggressive level: a sync in a loop that also runs an
inner loop (an epoch loop), one under a periodic guard, one in a file that never places a
tensor on an accelerator, one in a loop that runs no model or training step (over
parameters or plots), one whose value only feeds logging (removing it would drop the
output), and one whose value the loop uses on the host (a branch, an index, a call).
"""

from __future__ import annotations

from harp_ir.analysis import (
    Assumption,
    accelerator,
    describe_loop,
    does_model_work,
    enclosing_loop,
    enclosing_scope,
    frequency,
    loop_runs,
    on_cpu,
    producer,
    receiver,
    record_hint,
    runs_inner_loop,
    same_op,
    string_attr,
    value_uses,
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


def _message(op, loop, how_often: str, logging: bool) -> str:
    subject = _subject(op)
    if op.name == "host.truth":
        return (f"the condition `{subject}` is a tensor: testing it copies it to the host and "
                f"waits for the device {how_often}; test it on the device "
                f"less often (every N steps) or once after the loop")
    if logging:
        return (f"{_what(op)} copies `{subject}` to the host and waits for the device "
                f"{how_often}, only to print or log it; log less often, or keep the "
                f"values on the device and convert them when you log")
    return (f"{_what(op)} copies `{subject}` to the host and waits for the device "
            f"{how_often}; keep it on the device (accumulate with tensor ops) and "
            f"convert once after the loop")


def _is_sync(op) -> bool:
    return op.name in _SYNC_OPS and string_attr(op, "effect") == "sync"


def _no_wait(op) -> bool:
    """Whether the converted tensor is on the host already: the result of another sync
    (`t.cpu().item()`: only the first one waits) or of a factory that made it on the CPU
    (`torch.randint(0, n, (1,)).item()`)."""
    recv = receiver(op) if string_attr(op, "method") else None
    if recv is None:
        return False
    made = producer(recv)
    return (made is not None and _is_sync(made)) or on_cpu(recv)


def _synced_anyway(op, loop) -> bool:
    """Whether another sync of the same value runs on every iteration of `loop` for a use
    that needs it on the host (a print every step, a branch): removing this one then saves
    no wait."""
    subject = string_attr(op, "harp.receiver")
    if not subject:
        return False
    for other in walk(loop):
        if other == op or not _is_sync(other) or other.name != "host.call" or \
                string_attr(other, "harp.receiver") != subject or \
                frequency(other, loop).kind != "always" or \
                not same_op(enclosing_loop(other), loop):
            continue
        if value_uses(other.result, enclosing_scope(other)) - {"accumulate"}:
            return True
    return False


def run(module, pass_=None) -> None:
    for op in walk(module):
        if not _is_sync(op) or _no_wait(op):
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
            accelerator(op),
        ]
        how_often = frequency(op, loop)
        if how_often.assumption(loop):
            assumptions.append(how_often.assumption(loop))
        if not does_model_work(loop):
            assumptions.append(Assumption(
                "hot-loop", describe_loop(loop), "high", "speculated",
                "an iteration runs no model, training step or batch (a loop over "
                "parameters, plots or a few results)"))
        elif runs_inner_loop(loop, op):
            assumptions.append(Assumption(
                "hot-loop", describe_loop(loop), "high", "speculated",
                "the loop also runs an inner loop, so it may run only a few times "
                "(once per epoch)"))
        uses = value_uses(op.result, enclosing_scope(op)) if op.name == "host.call" \
            else {"host"}
        logging = "output" in uses and "host" not in uses  # printed on every step
        if logging:
            assumptions.append(Assumption(
                "logging-cost", subject, "high", "speculated",
                "the value only feeds a print, a logger or a plot: the output needs it"))
        elif "host" in uses:
            assumptions.append(Assumption(
                "accumulated-only", subject, "high", "speculated",
                "the loop uses the value on the host (a branch, an index, a call), so it "
                "must be copied there"))
        elif _synced_anyway(op, loop):
            assumptions.append(Assumption(
                "accumulated-only", subject, "high", "speculated",
                f"`{subject}` is copied to the host on each iteration anyway, by another "
                f"sync the loop needs"))
        record_hint(op, HINT, _message(op, loop, how_often.phrase(loop), logging), assumptions)
