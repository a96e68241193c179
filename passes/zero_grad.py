"""--harp-zero-grad (HARP502): gradients zeroed in place instead of released.

Finds: `optimizer.zero_grad(set_to_none=False)` / `model.zero_grad(set_to_none=False)`
and `param.grad.zero_()`. Zeroing keeps every gradient buffer allocated and launches a
memset per parameter; `zero_grad()` (set to None, the default since PyTorch 2.0) frees
them and lets the next backward write fresh ones.

Assumes: nothing reads `.grad` between zeroing and the next backward expecting zeros.
That is a high-risk speculation in a file that handles `.grad` itself (reads it in
arithmetic, or accumulates into it, as a hand-written optimizer or a parameter server
does `p.grad += g`): there the buffers are part of the program's own update.
"""

from __future__ import annotations

from harp_ir.analysis import (
    Assumption,
    call_arguments,
    constant_value,
    record_hint,
    span,
    string_attr,
    walk,
)

HINT = "HARP502"


def _grad_handled(module) -> str:
    """Where the file uses a `.grad` other than to zero it (`p -= lr * p.grad`,
    `p.grad += g`), as "line N", or ""."""
    for op in walk(module):
        if op.name != "host.getattr" or string_attr(op, "attr") != "grad":
            continue
        for use in op.result.uses:
            user = use.owner.operation
            if user.name == "host.getattr" and string_attr(user, "attr") in (
                    "zero_", "data", "detach", "__class__"):
                continue
            if user.name == "host.compare":  # `if p.grad is not None`
                continue
            where = span(op.location)
            return f"line {where.line}" if where else "this file"
    return ""


def run(module, pass_=None) -> None:
    handled = _grad_handled(module)
    for op in walk(module):
        if op.name != "host.call":
            continue
        method = string_attr(op, "method")
        recv = string_attr(op, "harp.receiver")
        if method == "zero_grad" and any(k == "set_to_none" and constant_value(a) is False
                                         for k, a in call_arguments(op)):
            message = (f"`{recv or 'zero_grad'}.zero_grad(set_to_none=False)` keeps every "
                       f"gradient buffer and zeroes it; call `zero_grad()` (set_to_none=True)"
                       f" to free them")
        elif method == "zero_" and recv.endswith(".grad"):
            message = (f"`{recv}.zero_()` zeroes a gradient buffer in place; use "
                       f"`optimizer.zero_grad()` (or set `.grad = None`) to release it")
        else:
            continue
        if handled:
            unread = Assumption("grad-unread", recv, "high", "speculated",
                                f"the program reads or accumulates into `.grad` itself "
                                f"({handled}): its update may need the buffers")
        else:
            unread = Assumption("grad-unread", recv, "low", "speculated",
                                "nothing reads the zeroed gradients before the next backward")
        record_hint(op, HINT, message, [unread])
