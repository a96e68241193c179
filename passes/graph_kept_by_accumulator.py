"""--harp-graph-kept-by-accumulator (HARP504): a loss accumulated with its autograd graph.

Finds: `total += loss` (or `total = total + loss / n`, `losses.append(loss)`) in a PyTorch
training loop, where `loss.backward()` runs in the same loop, so `loss` surely records a
graph. The sum is then a tensor whose history links every iteration's graph: its nodes
stay alive until the accumulator does, and memory grows with each step. This is the first
item of PyTorch's FAQ ("Don't accumulate history across your training loop"). Backward
has freed the tensors the graph saved, so what stays is about a kilobyte of nodes a step:
without bound for a sum kept across the whole run, let go each epoch for a sum rebound per
epoch or local to a per-epoch function (then a high-risk step-share speculation).

Assumes (proved on the IR where it says so): `loss.backward()` runs in the loop without
`retain_graph`/`create_graph`, so the graph kept by the sum has been freed and cannot be
backpropagated again: nothing can use it (no-backward); the accumulator's autograd history
is not read: every other use of it goes through `.item()`, `float()`, `.data`,
`.detach()` or `.tolist()` (a printed tensor shows its `grad_fn`); for a list, the
elements' later uses are not followed, so that fix is unsafe.
"""

from __future__ import annotations

from collections import Counter

import libcst as cst

from harp_ir.analysis import (
    Assumption,
    call_arguments,
    describe_loop,
    enclosing_loop,
    enclosing_scope,
    holds,
    loops_around,
    producer,
    record_hint,
    same_op,
    span,
    string_attr,
    walk,
)
from harp_ir.codemods import node_at
from harp_ir.rules import Fix, HintSpec, Rule, established

HINT = "HARP504"
#: what a use of the accumulator may do without reading its autograd history
_PLAIN_VALUE = frozenset({"item", "data", "detach", "tolist"})
_PLAIN_CALLS = ("builtins.float", "builtins.int")


def _backward_in(region, freeing: bool = True) -> dict[str, object]:
    """The names whose `.backward()` runs in `region` (only those that free the graph:
    no `retain_graph`/`create_graph`), each with its call."""
    found = {}
    for op in walk(region):
        if op.name == "host.call" and string_attr(op, "qualname") == "torch.Tensor.backward" \
                and not (freeing and any(k in ("retain_graph", "create_graph", "**")
                                         for k, _ in call_arguments(op))):
            recv = producer(op.operands[0])
            base = producer(recv.operands[0]) if recv is not None and recv.operands else None
            if base is not None and base.name == "host.load":
                found.setdefault(string_attr(base, "name"), op)
    return found


def _graph_loads(value, names: set[str], depth: int = 0) -> list:
    """The loads of `names` an accumulated expression adds as they are: the value itself,
    or an arithmetic operand (`loss / n`, `loss * x.size(0)`); not through `.item()`,
    `.detach()` or a call."""
    op = producer(value)
    if op is None or depth > 4:
        return []
    if op.name == "host.load":
        return [op] if string_attr(op, "name") in names else []
    if op.name == "host.binop" and string_attr(op, "op") in ("add", "sub", "mul", "truediv"):
        return [load for v in op.operands for load in _graph_loads(v, names, depth + 1)]
    return []


def _accumulations(loop, names: set[str]):
    """(load of the graph-holding value, accumulator name, "sum" or "list") in `loop`:
    `total += loss`, `total = total + loss`, `losses.append(loss)`."""
    for op in walk(loop):
        if op.name == "host.binop" and string_attr(op, "op") == "add":
            stores = [u.owner.operation for u in op.result.uses
                      if u.owner.operation.name == "host.store"]
            left = producer(op.operands[0])
            if len(stores) == 1 and left is not None and left.name == "host.load" and \
                    string_attr(left, "name") == string_attr(stores[0], "name"):
                for load in _graph_loads(op.operands[1], names):
                    yield load, string_attr(stores[0], "name"), "sum"
        elif op.name == "host.call" and string_attr(op, "method") == "append" and \
                len(op.operands) == 2 and string_attr(op, "harp.receiver"):
            for load in _graph_loads(op.operands[1], names):
                yield load, string_attr(op, "harp.receiver"), "list"


def _history_read(name: str, scope) -> str:
    """Where the accumulator `name` is used as a tensor whose history shows (printed,
    returned, passed on), as "line N"; "" when every use goes through `.item()`,
    `float()`, `.data`, `.detach()` or `.tolist()`, or accumulates into it."""
    for op in walk(scope):
        if op.name != "host.load" or string_attr(op, "name") != name:
            continue
        for use in op.result.uses:
            user = use.owner.operation
            if user.name == "host.binop" and any(
                    u.owner.operation.name == "host.store" and
                    string_attr(u.owner.operation, "name") == name for u in user.result.uses) \
                    or user.name == "host.getattr" and string_attr(user, "attr") in _PLAIN_VALUE \
                    or user.name == "host.call" and \
                    string_attr(user, "qualname") in _PLAIN_CALLS:
                continue
            where = span(op.location)
            return f"line {where.line}" if where else "elsewhere"
    return ""


def run(module, pass_=None) -> None:
    for loop in walk(module):
        if loop.name not in ("host.for", "host.while"):
            continue
        backward = _backward_in(loop)
        if not backward:
            continue
        stores = Counter(string_attr(o, "name") for o in walk(loop) if o.name == "host.store")
        backpropagated = set(_backward_in(enclosing_scope(loop), freeing=False))
        for load, accumulator, kind in _accumulations(loop, set(backward)):
            loss = string_attr(load, "name")
            if not same_op(enclosing_loop(load), loop) or stores[loss] != 1 or \
                    accumulator in backpropagated:
                continue  # an inner loop's; `loss` rebound; the sum is the one backpropagated
            where = span(backward[loss].location)
            line = f" at line {where.line}" if where else ""
            keeps = "every iteration's graph" if kind == "sum" else "each element's graph"
            message = (f"`{accumulator}` accumulates `{loss}` with its autograd graph "
                       f"(`{loss}.backward()` runs{line}): {keeps} stays "
                       f"alive through `{accumulator}`, so memory grows on every iteration of "
                       f"{describe_loop(loop)}; accumulate `{loss}.detach()` (or "
                       f"`{loss}.item()`)")
            read = _history_read(accumulator, enclosing_scope(loop)) if kind == "sum" \
                else "the list's elements are not followed"
            history = Assumption(
                "history-unread", accumulator, "low", "proved",
                f"every other use of `{accumulator}` goes through `.item()`, `float()`, "
                f"`.data`, `.detach()` or `.tolist()`") if not read else Assumption(
                "history-unread", accumulator, "medium", "speculated",
                f"`{accumulator}` is used as a tensor ({read}): a printed tensor shows its "
                f"`grad_fn`")
            assumptions = [
                Assumption("tensor", loss, "low", "proved",
                           f"`{loss}.backward()` runs on it in the loop"),
                Assumption("no-backward", accumulator, "low", "proved",
                           f"`{loss}.backward()` frees the graph the sum keeps (no "
                           f"`retain_graph`), so no backward can run through it"),
                history,
            ]
            reset = _reset(accumulator, loop)
            if reset:
                # backward has freed each graph's saved tensors: what the sum keeps is its
                # autograd nodes, until it is rebound; blind readers judged the 5 corpus
                # hints of this form (reset each epoch) FALSE
                assumptions.append(Assumption(
                    "step-share", accumulator, "high", "speculated",
                    f"backward frees the tensors each step's graph saved, so `{accumulator}` "
                    f"keeps only autograd nodes (about a kilobyte a step), and {reset}"))
            record_hint(load, HINT, message, assumptions)


def _reset(accumulator: str, loop) -> str:
    """How the sum's kept history is let go before the run ends: it is rebound in a loop
    around `loop` (`avg_cost = 0` each epoch), or it is a local of the function `loop` is
    the outermost loop of (a per-epoch helper: it goes when the call returns). "" when it
    lives across the whole run (module level, or bound before an epoch loop)."""
    around = loops_around(loop)
    for outer in around:
        if any(o.name == "host.store" and string_attr(o, "name") == accumulator and
               not holds(loop, o) for o in walk(outer)):
            return f"it is rebound on every iteration of {describe_loop(outer)}"
    scope = enclosing_scope(loop)
    if scope.name != "host.func" or around:
        return ""
    first = next((o for o in walk(scope) if o.name == "host.store" and
                  string_attr(o, "name") == accumulator), None)
    if first is not None and string_attr(first, "scope"):
        return ""  # a `global` or `nonlocal` sum outlives the call
    return f"it is a local of `{string_attr(scope, 'sym_name')}`, let go when the call returns"


# --- the fix ------------------------------------------------------------------------------

def fix_detach(module, positions, hint):
    """Accumulate `loss.detach()`: the same values, without the history."""
    name = node_at(positions, hint.span, cst.Name)
    detached = cst.Call(cst.Attribute(value=name, attr=cst.Name("detach")))
    return module.deep_replace(name, detached)


def _history_safety(hint) -> str:
    return "safe" if all(established(a) for a in hint.assumptions
                         if a.kind == "history-unread") else "unsafe"


RULE = Rule(
    flag="harp-graph-kept-by-accumulator",
    summary="Find losses accumulated with their autograd graphs (HARP504)",
    run=run,
    hint=HintSpec(
        id="HARP504",
        name="graph-kept-by-accumulator",
        finds="a loss accumulated with its autograd graph (`total += loss`, "
              "`losses.append(loss)`) in a loop that calls `loss.backward()`",
        why="the sum links every iteration's graph: its autograd nodes stay alive as long as "
            "the accumulator (backward has freed the tensors they saved), so memory grows on "
            "every step, without bound when the sum lives for the whole run (PyTorch FAQ: "
            "don't accumulate history across your training loop)",
        refactoring="accumulate `loss.detach()` (or `loss.item()`)",
        before="for x, y in loader:\n"
               "    loss = loss_fn(model(x), y)\n"
               "    loss.backward()\n"
               "    total_loss += loss\n",
        after="for x, y in loader:\n"
              "    loss = loss_fn(model(x), y)\n"
              "    loss.backward()\n"
              "    total_loss += loss.detach()\n",
        assumptions=("tensor", "no-backward", "history-unread", "step-share"),
    ),
    fix=Fix(
        apply=fix_detach,
        summary="safe when the sum's history is unread, else unsafe",
        rewrite="the accumulated `loss` becomes `loss.detach()`: the same values; safe when "
                "every other use of the accumulator goes through `.item()`, `float()`, "
                "`.data`, `.detach()` or `.tolist()`",
        declines="never (the hint's span is the loss itself)",
        safety=_history_safety,
        unsafe_because="the accumulator is used as a tensor, whose printed form shows its "
                       "`grad_fn`, or it is a list whose elements are not followed",
    ),
)
