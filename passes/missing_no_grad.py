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

import libcst as cst
from torch_mlir import ir

from harp_ir.analysis import (
    LOOPS,
    SCOPES,
    Assumption,
    calls_of,
    describe_loop,
    does_model_work,
    enclosing_scope,
    record_hint,
    string_attr,
    walk,
)
from harp_ir.codemods import Decline, node_at, syntax
from harp_ir.rules import Fix, HintSpec, Rule

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


def _grad_disabled(op, depth: int = 0) -> bool:
    """Whether autograd is off where `op` runs: inside `with torch.no_grad()`, a function
    decorated with it, or a function of the file whose every call is in such code (a
    helper only a `@torch.no_grad()` test method calls)."""
    parent = op.parent
    while parent is not None:
        for attr in ("harp.contexts", "harp.decorators"):  # on host.with / host.func
            if attr in parent.attributes and any(
                    ir.StringAttr(a).value in NO_GRAD for a in ir.ArrayAttr(
                        parent.attributes[attr])):
                return True
        calls = calls_of(parent) if parent.name == "host.func" and depth < 3 else []
        if calls:
            return all(_grad_disabled(c, depth + 1) for c in calls)
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
               for o in body) or _backward_after(loop):
            continue
        reported.append(loop)
        opaque_calls = any(o.name == "host.call" and string_attr(o, "effect") == "unknown"
                           and not _calls_module(o) for o in body)
        message = (f"`{model}(...)` runs with autograd recording on every iteration of "
                   f"{describe_loop(loop)}, which never calls backward(): wrap the loop in "
                   f"`with torch.inference_mode():` (or `torch.no_grad()`)")
        assumptions = [
            Assumption("no-backward", describe_loop(loop), "medium" if opaque_calls else "low",
                       "speculated", "no function called in the loop runs backward, and the "
                       "outputs are not kept for a later backward"),
        ]
        if not does_model_work(loop):
            assumptions.append(Assumption(
                "hot-loop", describe_loop(loop), "high", "speculated",
                "a handful of iterations (a constant range): the graphs cost little"))
        record_hint(loop, HINT, message, assumptions)


def _backward_after(loop) -> bool:
    """Whether a training step after `loop`, in the block that holds it, uses what the
    loop computed (a style loss summed over feature maps, then `backward()`), or the
    function returns it (a module's `forward` stacking per-step outputs): then the graph
    the loop records is needed, or may be by the callers."""
    tainted = {string_attr(o, "name") for o in walk(loop) if o.name == "host.store"} | {
        string_attr(o, "harp.receiver") for o in walk(loop) if o.name == "host.call" and
        string_attr(o, "method") in ("append", "extend", "insert")}  # `outs.append(y)`
    after = False
    for child in loop.block.operations:
        op = child.operation
        if op == loop:
            after = True
            continue
        if not after:
            continue
        for o in [op, *walk(op)]:
            if o.name == "host.store":  # rebinding a name to other data clears it
                if _reads(o.operands[0], tainted):
                    tainted.add(string_attr(o, "name"))
                else:
                    tainted.discard(string_attr(o, "name"))
            elif (o.name == "host.call" and string_attr(o, "method") in _TRAINING_METHODS
                  or o.name == "hostcf.return" and _model_method(o)) and \
                    any(_reads(v, tainted) for v in o.operands):
                return True
    return False


def _model_method(op) -> bool:
    """Whether `op` is in a class's `forward` or `__call__`: part of a model, whose caller
    decides whether autograd records (a training step backpropagates through it)."""
    func = enclosing_scope(op)
    return func.name == "host.func" and func.parent is not None and \
        func.parent.name == "host.class" and \
        string_attr(func, "sym_name") in ("forward", "__call__")


def _reads(value, names: set[str], depth: int = 0) -> bool:
    """Whether the expression computing `value` loads one of `names`."""
    op = value.owner.operation if hasattr(value.owner, "operation") else None
    if op is None or depth > 10:
        return False
    if op.name == "host.load":
        return string_attr(op, "name") in names
    return not op.regions and any(_reads(v, names, depth + 1) for v in op.operands)


# --- the fix ------------------------------------------------------------------------------

def fix_missing_no_grad(module, positions, hint):
    loop = node_at(positions, hint.span, (cst.For, cst.While))
    if syntax.module_alias(module, "torch") != "torch":
        raise Decline("`torch` is not imported as `torch` at module level")
    parents = syntax.parents(module)
    stmt, _ = syntax.statement_of(loop, parents)
    wrapped = cst.With(
        items=[cst.WithItem(cst.parse_expression("torch.inference_mode()"))],
        body=cst.IndentedBlock(body=[stmt.with_changes(leading_lines=[])]),
        leading_lines=stmt.leading_lines)
    return module.deep_replace(stmt, wrapped)


def _no_backward_risk(hint) -> str:
    risk = next((a.risk for a in hint.assumptions if a.kind == "no-backward"), "high")
    return "safe" if risk == "low" else "unsafe"


RULE = Rule(
    flag="harp-missing-no-grad",
    summary="Find PyTorch inference loops run with autograd on (HARP303)",
    run=run,
    hint=HintSpec(
        id="HARP303",
        name="missing-no-grad",
        finds="PyTorch inference or evaluation (no backward, no optimizer step in the loop) "
              "without `torch.no_grad()`/`inference_mode()`",
        why="autograd records every op and keeps its inputs alive for a backward pass that never"
            " comes: more memory and time",
        refactoring="wrap the loop in `torch.inference_mode()`",
        before="for x, y in val_loader:\n"
               "    correct += (model(x).argmax(1) == y).sum()\n",
        after="with torch.inference_mode():\n"
              "    for x, y in val_loader:\n"
              "        correct += (model(x).argmax(1) == y).sum()\n",
        assumptions=("hot-loop", "no-backward"),
    ),
    fix=Fix(
        apply=fix_missing_no_grad,
        summary="safe when no-backward is low risk, else unsafe",
        rewrite="the loop is wrapped in `torch.inference_mode()` (safe when the no-backward "
                "assumption is low risk, else `--unsafe-fixes`)",
        declines="`torch` is not imported as `torch`",
        safety=_no_backward_risk,
        unsafe_because="a backward pass may still run through its outputs",
    ),
)
