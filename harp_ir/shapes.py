"""Ranks: how many dimensions a tensor has, where the program shows it.

Factories with their sizes (`torch.randn(16)`, `torch.zeros((n, 3))`, `tf.zeros([2, 3])`,
`arange`), `torch.tensor` of nested displays, indexing (an int or a `range` loop's index
drops a dimension, a slice keeps one, `None` adds one), `.T`, `@`, element-wise operators
and conversions. HARP401's fix vectorizes a per-element loop only when the ranks prove
the broadcast lines up.
"""

from __future__ import annotations

from torch_mlir import ir

from harp_ir.analysis import (
    call_arguments,
    constant_value,
    int_at_least,
    producer,
    stored_once,
    string_attr,
    value_kind,
)

#: factories whose positional arguments (or one display of them) are the sizes
_SIZED_FACTORIES = frozenset({
    "torch.zeros", "torch.ones", "torch.randn", "torch.rand", "torch.empty"})
#: factories whose first argument (or `shape=`) is a display of the sizes
_SHAPED_FACTORIES = frozenset({
    "torch.full", "tensorflow.zeros", "tensorflow.ones", "tensorflow.fill",
    "tensorflow.random.normal", "tensorflow.random.uniform", "tensorflow.random.truncated_normal",
    "tensorflow.compat.v1.random_normal", "tensorflow.compat.v1.truncated_normal",
    "tensorflow.compat.v1.zeros", "tensorflow.compat.v1.ones"})
#: factories of one dimension
_VECTOR_FACTORIES = frozenset({"torch.arange", "torch.linspace", "tensorflow.range",
                               "tensorflow.linspace"})
#: methods whose result has their receiver's rank (conversions, copies, moves, and
#: element-wise maths)
_RANK_KEEPING_METHODS = frozenset({
    "float", "double", "half", "long", "int", "bool", "detach", "clone", "cuda", "cpu", "to",
    "contiguous", "abs", "exp", "log", "sqrt", "sigmoid", "tanh", "relu", "neg", "clamp",
    "pow", "requires_grad_", "type", "numpy"})
#: library functions whose result has their first argument's rank
_RANK_KEEPING_FUNCTIONS = frozenset({
    "torch.relu", "torch.sigmoid", "torch.tanh", "torch.exp", "torch.log", "torch.abs",
    "torch.sqrt", "torch.sin", "torch.cos", "torch.clamp", "torch.zeros_like",
    "torch.ones_like", "torch.randn_like", "torch.rand_like", "torch.empty_like",
    "torch.nn.functional.relu", "torch.nn.functional.sigmoid", "tensorflow.exp",
    "tensorflow.nn.relu", "tensorflow.sigmoid", "tensorflow.tanh", "tensorflow.abs",
    "tensorflow.zeros_like", "tensorflow.ones_like", "tensorflow.cast"})


def tensor_rank(value: ir.Value, depth: int = 0) -> int | None:
    """The number of dimensions of a tensor where the program shows it, else None: from
    factories (`torch.randn(16)`, `torch.zeros((n, 3))`, `tf.zeros([2, 3])`, `arange`),
    `torch.tensor` of nested displays, a name stored once in its scope, indexing (an int
    or the index of a `range` loop drops a dimension, a slice keeps one, None adds one),
    `.T`, element-wise operators (the larger rank: they broadcast), `@`, and calls that keep
    their argument's rank (`.float()`, `.to(device)`, `torch.relu`)."""
    if depth > 8:
        return None
    op = producer(value)
    if op is None:
        return None
    if op.name == "host.load":
        stored = stored_once(op)
        return tensor_rank(stored, depth + 1) if stored is not None else None
    if op.name == "host.from_graph":
        return None
    if op.name == "host.constant":
        found = constant_value(value)
        return 0 if isinstance(found, (int, float)) and not isinstance(found, bool) else None
    if op.name == "host.binop":
        ranks = [tensor_rank(v, depth + 1) for v in op.operands]
        if None in ranks:
            return None
        if string_attr(op, "op") == "matmul":
            return {(2, 2): 2, (1, 2): 1, (2, 1): 1, (1, 1): 0}.get(tuple(ranks))
        return max(ranks)
    if op.name == "host.unop" and string_attr(op, "op") in ("neg", "usub", "pos"):
        return tensor_rank(op.operands[0], depth + 1)
    if op.name == "host.getattr":
        return tensor_rank(op.operands[0], depth + 1) if string_attr(op, "attr") == "T" \
            else None
    if op.name == "host.getitem":
        return _indexed_rank(op, depth)
    if op.name == "host.call":
        return _call_rank(op, depth)
    return None


def _indexed_rank(op: ir.Operation, depth: int) -> int | None:
    """`x[i]`, `x[:, 0]`, `x[a:b]`, `x[None]`: the base's rank, less one per int index."""
    if value_kind(op.operands[0]) != "tensor":
        return None
    base = tensor_rank(op.operands[0], depth + 1)
    index = producer(op.operands[1])
    items = list(index.operands) if index is not None and index.name == "host.tuple" \
        else [op.operands[1]]
    if base is None or len(items) > base:
        return None
    for item in items:
        origin = producer(item)
        found = constant_value(item)
        if origin is not None and origin.name == "host.slice":
            continue
        if found is None:
            base += 1
        elif isinstance(found, int) and not isinstance(found, bool) or _range_index(item):
            base -= 1
        else:  # a tensor, a list, `...`: advanced indexing
            return None
    return base


def _range_index(value: ir.Value) -> bool:
    """Whether `value` is the index of a `for i in range(...)` loop (an int)."""
    op = producer(value)
    if op is not None and op.name == "host.load":
        value = stored_once(op)
    owner = value.owner if value is not None else None
    if not isinstance(owner, ir.Block):
        return False
    loop = owner.owner.operation
    iterable = producer(loop.operands[0]) if loop.name == "host.for" else None
    return iterable is not None and string_attr(iterable, "qualname") == "builtins.range"


def _call_rank(op: ir.Operation, depth: int) -> int | None:
    qualname, method = string_attr(op, "qualname"), string_attr(op, "method")
    args = call_arguments(op)
    positional = [v for k, v in args if not k]
    if qualname in _SIZED_FACTORIES:
        if len(positional) == 1:
            return _display_length(positional[0])
        return len(positional) if positional and not any(k.startswith("*") for k, _ in args) \
            else None
    if qualname in _SHAPED_FACTORIES:
        shape = positional[0] if positional else dict(args).get("shape")
        return _display_length(shape) if shape is not None else None
    if qualname in _VECTOR_FACTORIES:
        return 1
    if qualname in ("torch.tensor", "tensorflow.constant", "torch.as_tensor") and positional:
        return _nesting(positional[0])
    if qualname == "torch.eye":
        return 2
    if qualname in _RANK_KEEPING_FUNCTIONS and positional:
        return tensor_rank(positional[0], depth + 1)
    callee = producer(op.operands[0])
    receiver = callee.operands[0] if callee is not None and callee.name == "host.getattr" \
        else None
    if receiver is not None and value_kind(receiver) == "tensor" and \
            method in _RANK_KEEPING_METHODS:
        return tensor_rank(receiver, depth + 1)
    if receiver is not None and method in ("ger", "outer") or \
            qualname in ("torch.ger", "torch.outer"):
        return 2  # an outer product of two vectors
    if receiver is not None and value_kind(receiver) == "tensor" and \
            method in ("view", "reshape") and positional:
        return _display_length(positional[0]) if len(positional) == 1 else len(positional)
    return None


def _display_length(value: ir.Value) -> int | None:
    """How many sizes a shape argument gives: the length of a display (or of the display a
    name is stored once from), or 1 for an int."""
    op = producer(value)
    if op is not None and op.name == "host.load":
        stored = stored_once(op)
        op = producer(stored) if stored is not None else None
        value = stored if stored is not None else value
    if op is not None and op.name in ("host.tuple", "host.list") and \
            not any(producer(v) is not None and producer(v).name == "host.starred"
                    for v in op.operands):
        return len(op.operands)
    if int_at_least(value) is not None or _range_index(value):
        return 1
    return None


def _nesting(value: ir.Value) -> int | None:
    """The rank of `torch.tensor(data)`: how deep its displays of numbers nest."""
    op = producer(value)
    if op is not None and op.name in ("host.list", "host.tuple"):
        ranks = {_nesting(v) for v in op.operands}
        return 1 + ranks.pop() if len(ranks) == 1 and None not in ranks else None
    found = constant_value(value)
    return 0 if isinstance(found, (int, float)) and not isinstance(found, bool) else None


def constant_elements(sizes: list[ir.Value]) -> int | None:
    """How many elements a shape holds when the code gives every size as a constant int:
    `(64, 100)` as separate arguments, or one tuple or list display of them; else None."""
    made = producer(sizes[0]) if len(sizes) == 1 else None
    if made is not None and made.name in ("host.tuple", "host.list"):
        sizes = list(made.operands)
    total = 1
    for size in sizes:
        n = constant_value(size)
        if not isinstance(n, int) or isinstance(n, bool):
            return None
        total *= n
    return total if sizes else None
