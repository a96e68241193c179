"""--harp-zero-grad (HARP502): gradients zeroed in place instead of released.

Finds: `optimizer.zero_grad(set_to_none=False)` / `model.zero_grad(set_to_none=False)`
and `param.grad.zero_()`. Zeroing keeps every gradient buffer allocated and launches a
memset per parameter; `zero_grad()` (set to None, the default since PyTorch 2.0) frees
them and lets the next backward write fresh ones.

Assumes: nothing reads `.grad` between zeroing and the next backward expecting zeros.
That is a high-risk speculation in a file that handles `.grad` itself (reads it in
arithmetic, or accumulates into it, as a hand-written optimizer or a parameter server
does `p.grad += g`): there the buffers are part of the program's own update. And always
a high-risk `step-share` one, so the hint is the aggressive level's: a fill per gradient
costs microseconds and releasing the buffers saves memory, not time. Blind readers
judged every such hint they saw, eleven on the corpus and on first contact, FALSE (well
under 1% of a step).
"""

from __future__ import annotations

import libcst as cst

from harp_ir.analysis import (
    Assumption,
    call_arguments,
    constant_value,
    record_hint,
    span,
    string_attr,
    walk,
)
from harp_ir.codemods import Decline, node_at, syntax, unproved
from harp_ir.rules import Fix, HintSpec, Rule

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


def _step_share(subject: str) -> Assumption:
    return Assumption("step-share", subject, "high", "speculated",
                      "a fill per gradient buffer costs microseconds, well under 1% of a "
                      "step; releasing the buffers saves memory, not time")


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
        record_hint(op, HINT, message, [unread, _step_share(recv or "zero_grad")])


# --- the fix ------------------------------------------------------------------------------

def fix_zero_grad(module, positions, hint):
    call = node_at(positions, hint.span, cst.Call)
    args = [a for a in call.args
            if not (a.keyword is not None and a.keyword.value == "set_to_none")]
    if len(args) == len(call.args):
        raise Decline("manual `.grad.zero_()` needs to know who reads the gradient")
    grad = _grad_read(module)
    if grad:
        raise Decline(f"the program reads `.grad` ({grad}): after `zero_grad()` it is None, "
                      f"not zeros")
    if not _stateless_sgd(module, call):
        unproved("every parameter gets a gradient on every step: an optimizer with state, "
                 "momentum or weight decay skips a parameter whose gradient is None but "
                 "still updates one whose gradient is zeros")
    if args:
        args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    return module.deep_replace(call, call.with_changes(args=args))


def _grad_read(module) -> str:
    """Where the program touches a parameter's `.grad` ("" if nowhere)."""
    found = []

    class Grad(cst.CSTVisitor):
        def visit_Attribute(self, node):
            if node.attr.value == "grad":
                found.append(node)

    module.visit(Grad())
    return syntax.line(module, found[0]) if found else ""


def _stateless_sgd(module, call) -> bool:
    """Whether `opt.zero_grad(...)` is called on an optimizer bound once, to
    `torch.optim.SGD(params, lr)` with no momentum or weight decay: a step then leaves a
    parameter with a zero gradient exactly as it leaves one with none."""
    if not (isinstance(call.func, cst.Attribute) and isinstance(call.func.value, cst.Name)):
        return False
    scope = syntax.scopes(module).get(call)
    assignments = list(scope.assignments[call.func.value.value]) if scope else []
    parents = syntax.parents(module)
    target = getattr(assignments[0], "node", None) if len(assignments) == 1 else None
    assign = parents.get(parents.get(target))
    if not (isinstance(assign, cst.Assign) and isinstance(assign.value, cst.Call)):
        return False
    made = assign.value
    if "torch.optim.SGD" not in {q.name for q in scope.get_qualified_names_for(made.func)}:
        return False
    stateful = {"momentum", "weight_decay", "nesterov", "dampening"}
    return all(a.keyword is None and i < 2 or a.keyword is not None and (
        a.keyword.value not in stateful or
        isinstance(a.value, (cst.Integer, cst.Float)) and float(a.value.value) == 0)
        for i, a in enumerate(made.args))


RULE = Rule(
    flag="harp-zero-grad",
    summary="Find gradients zeroed in place instead of released (HARP502)",
    run=run,
    hint=HintSpec(
        id="HARP502",
        name="zero-grad-keeps-memory",
        finds="`zero_grad(set_to_none=False)` or a manual `.grad.zero_()`",
        why="zeroing keeps every gradient buffer allocated and launches a fill per parameter; "
            "setting them to None frees them and lets the next backward write fresh ones",
        refactoring="`optimizer.zero_grad()` (set to None)",
        before="optimizer.zero_grad(set_to_none=False)\n",
        after="optimizer.zero_grad()\n",
        assumptions=("grad-unread", "step-share"),
    ),
    fix=Fix(
        apply=fix_zero_grad,
        summary="safe",
        rewrite="`set_to_none=False` is dropped; safe only for `torch.optim.SGD` without "
                "momentum or weight decay, otherwise `--unsafe-fixes` (a stateful optimizer "
                "skips a parameter whose gradient is None but updates one whose gradient is "
                "zeros)",
        declines="a manual `.grad.zero_()`; the program reads `.grad` anywhere (after "
                 "`zero_grad()` it is None)",
    ),
)
