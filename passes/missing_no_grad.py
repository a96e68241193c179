"""--harp-missing-no-grad (HARP303): PyTorch inference in a loop with autograd on.

Finds: a loop that calls a torch module (a value whose kind is `module`, framework
torch) but never calls `backward()` or an optimizer's `step()`, outside any
`torch.no_grad()` / `torch.inference_mode()` context and outside a function decorated
with them. Autograd then records a graph for every forward pass and keeps its
activations alive: wasted time and memory.

Assumes: no function the loop calls runs backward (low risk when the loop calls no user
function of unknown effect, medium otherwise), and the outputs are not needed for a later
backward.
"""

from __future__ import annotations

from torch_mlir import ir

from harp_ir.analysis import (
    LOOPS,
    SCOPES,
    Assumption,
    describe_loop,
    record_hint,
    string_attr,
    walk,
)

HINT = "HARP303"
NO_GRAD = ("torch.no_grad", "torch.inference_mode", "torch.enable_grad")
_TRAINING_METHODS = ("backward", "step", "minimize", "apply_gradients")


def _calls_module(op) -> str:
    """The name of the torch module `op` calls, if it does."""
    if op.name != "host.call":
        return ""
    owner = op.operands[0].owner
    callee = owner.operation if hasattr(owner, "operation") else None
    if callee is not None and string_attr(callee, "harp.kind") == "module" and \
            string_attr(callee, "harp.framework") == "torch":
        return string_attr(callee, "name") or string_attr(callee, "attr") or "the model"
    return ""


def _grad_disabled(op) -> bool:
    parent = op.parent
    while parent is not None:
        for attr in ("harp.contexts", "harp.decorators"):  # on host.with / host.func
            if attr in parent.attributes and any(
                    ir.StringAttr(a).value in NO_GRAD for a in ir.ArrayAttr(
                        parent.attributes[attr])):
                return True
        parent = parent.parent
    return False


def _outermost_loop(op):
    loop, parent = None, op.parent
    while parent is not None and parent.name not in SCOPES:
        if parent.name in LOOPS:
            loop = parent
        parent = parent.parent
    return loop


def run(module, pass_=None) -> None:
    reported = []
    for op in walk(module):
        model = _calls_module(op)
        if not model:
            continue
        loop = _outermost_loop(op)
        if loop is None or any(loop == r for r in reported) or _grad_disabled(op):
            continue
        body = list(walk(loop))
        if any(o.name == "host.call" and string_attr(o, "method") in _TRAINING_METHODS
               for o in body):
            continue
        reported.append(loop)
        opaque_calls = any(o.name == "host.call" and string_attr(o, "effect") == "unknown"
                           and not _calls_module(o) for o in body)
        message = (f"`{model}(...)` runs with autograd recording on every iteration of "
                   f"{describe_loop(loop)}, which never calls backward(): wrap the loop in "
                   f"`with torch.inference_mode():` (or `torch.no_grad()`)")
        record_hint(loop, HINT, message, [
            Assumption("no-backward", describe_loop(loop), "medium" if opaque_calls else "low",
                       "speculated", "no function called in the loop runs backward, and the "
                       "outputs are not kept for a later backward"),
        ])
