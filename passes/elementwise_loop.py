"""--harp-elementwise-loop (HARP401): a Python loop over the elements of a tensor.

Finds: `for i in range(len(t))` / `range(t.shape[0])` / `range(t.size(0))` loops whose
body indexes a tensor with the loop variable (`t[i]`, `out[i] = ...`), and `for v in t`
loops over a tensor whose body computes on `v`: one framework op (and, on a GPU, one
kernel launch) per element instead of one vectorized op.

Assumes: the iterations are independent (no element depends on an earlier one), which
the refactoring to a vectorized op needs.
"""

from __future__ import annotations

from harp_ir.analysis import (
    Assumption,
    describe_loop,
    in_compiled_function,
    producer,
    record_hint,
    string_attr,
    value_kind,
    value_name,
    walk,
)

HINT = "HARP401"


def _sized_tensor(value) -> str:
    """For `len(t)`, `t.shape[0]`, `t.size(0)`, `t.shape[0] - 1`: the tensor's name."""
    owner = value.owner
    if not hasattr(owner, "operation"):
        return ""
    op = owner.operation
    if op.name == "host.call" and string_attr(op, "qualname") == "builtins.len":
        arg = op.operands[1] if len(op.operands) > 1 else None
        return value_name(arg) if arg is not None and value_kind(arg) == "tensor" else ""
    if op.name == "host.call" and string_attr(op, "method") == "size":
        recv = op.operands[0].owner.operation.operands[0]
        return value_name(recv) if value_kind(recv) == "tensor" else ""
    if op.name == "host.getitem":
        inner = op.operands[0].owner
        if hasattr(inner, "operation") and inner.operation.name == "host.getattr" and \
                string_attr(inner.operation, "attr") == "shape":
            recv = inner.operation.operands[0]
            return value_name(recv) if value_kind(recv) == "tensor" else ""
    if op.name == "host.binop":
        return _sized_tensor(op.operands[0])
    return ""


def _index_is(op, var: str) -> bool:
    """Whether a getitem/setitem indexes with the loop variable (`t[i]`)."""
    index = producer(op.operands[1])
    return index is not None and index.name == "host.load" and \
        string_attr(index, "name") == var


def _indexed_by(loop, var: str) -> bool:
    return any(((op.name == "host.getitem" and value_kind(op.operands[0]) == "tensor") or
                op.name == "host.setitem") and _index_is(op, var) for op in walk(loop))


def _elementwise_body(loop, var: str) -> bool:
    """The body reads the loop variable and does tensor arithmetic, not model calls."""
    ops = list(walk(loop))
    uses_var = any(o.name == "host.load" and string_attr(o, "name") == var for o in ops)
    arithmetic = any(o.name in ("host.binop", "host.unop") or (
        o.name == "host.call" and string_attr(o, "effect") == "pure" and
        string_attr(o, "harp.kind") == "tensor") for o in ops)
    model_call = any(o.name == "host.call" and hasattr(o.operands[0].owner, "operation") and
                     string_attr(o.operands[0].owner.operation, "harp.kind") == "module"
                     for o in ops)
    return uses_var and arithmetic and not model_call


def _tensor_assumptions(loop, var: str, iterable) -> list[Assumption]:
    """`tensor` for each value the loop visits by element (`x[i]`, or `x` in `for v in x`):
    the vectorized rewrite computes on the whole of each."""
    visited = [iterable] if value_kind(iterable) == "tensor" else []
    visited += [op.operands[0] for op in walk(loop) if op.name == "host.getitem"
                and value_kind(op.operands[0]) == "tensor" and _index_is(op, var)]
    assumptions = {}
    for value in visited:
        name, origin = value_name(value), producer(value)
        if not name or name in assumptions:
            continue
        proved = string_attr(origin, "harp.kind_status") == "proved"
        assumptions[name] = Assumption(
            "tensor", name, "low" if proved else "medium",
            "proved" if proved else "speculated",
            string_attr(origin, "harp.kind_reason") or f"`{name}` holds a tensor")
    return list(assumptions.values())


def run(module, pass_=None) -> None:
    for loop in walk(module):
        if loop.name != "host.for" or in_compiled_function(loop):  # graph loops there
            continue
        var = string_attr(loop, "target")
        if not _elementwise_body(loop, var):
            continue
        iterable = loop.operands[0]
        owner = iterable.owner
        tensor = ""
        if hasattr(owner, "operation") and string_attr(owner.operation, "qualname") == \
                "builtins.range" and len(owner.operation.operands) == 2:
            tensor = _sized_tensor(owner.operation.operands[1])
            if not tensor or not _indexed_by(loop, var):
                continue
        elif value_kind(iterable) == "tensor":
            tensor = value_name(iterable) or "the tensor"
        else:
            continue
        message = (f"{describe_loop(loop)} visits `{tensor}` one element at a time, running "
                   f"framework ops per element; express the body as one vectorized op over "
                   f"the whole tensor")
        record_hint(loop, HINT, message, [
            Assumption("independent-iterations", describe_loop(loop), "medium",
                       "speculated", "no element depends on the result for an earlier one"),
            *_tensor_assumptions(loop, var, iterable),
        ])
