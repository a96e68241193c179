"""--harp-retracing (HARP102): a `tf.function` retraced in a loop.

Finds: (1) a `tf.function` created inside a loop (a decorated `def`, or a
`tf.function(f)` call): every iteration makes a new function and traces it again;
(2) a call of a `tf.function` inside a loop with a Python value that changes every
iteration (the loop variable of a `range`, or a Python scalar computed in the loop):
each new Python value is part of the trace signature, so every call traces a new graph.

Assumes: the function is called more than once per created function, and (for 2) the
argument is a Python number, not a tensor. For (2) the hint also says whether a tensor in
its place computes the same (`tensor-argument`): proved when the function's body uses the
parameter only in TF calls (`tf.cast(lr, tf.float32)`) and comparisons, where a tensor
and a number mean the same; speculated (medium risk) otherwise, since `x * lr` with an
int32 tensor `lr` and a float `x` fails where the Python number converts silently.
"""

from __future__ import annotations

from torch_mlir import ir

from harp_ir.analysis import (
    Assumption,
    call_arguments,
    describe_loop,
    enclosing_loop,
    invariant_in,
    loop_runs,
    producer,
    record_hint,
    string_attr,
    value_name,
    walk,
)

HINT = "HARP102"
TF_FUNCTION = "tensorflow.function"


def _python_scalar(value, loop, depth=0) -> bool:
    """A Python number that changes per iteration: the `range` loop variable, or
    arithmetic on it (through slots written in the loop)."""
    owner = value.owner
    if depth > 8 or not hasattr(owner, "operation"):
        return False
    op = owner.operation
    if op.name == "host.load":
        if _loop_variable_of_range(value, loop):
            return True
        name = string_attr(op, "name")
        return any(_python_scalar(o.operands[0], loop, depth + 1) for o in walk(loop)
                   if o.name == "host.store" and string_attr(o, "name") == name)
    if op.name in ("host.binop", "host.unop"):
        return any(_python_scalar(v, loop, depth + 1) for v in op.operands) and all(
            _python_scalar(v, loop, depth + 1) or (
                hasattr(v.owner, "operation") and v.owner.operation.name == "host.constant")
            for v in op.operands)
    return string_attr(op, "harp.kind") == "scalar"


def _loop_variable_of_range(value, loop) -> bool:
    owner = value.owner
    if not hasattr(owner, "operation") or owner.operation.name != "host.load":
        return False
    name = string_attr(owner.operation, "name")
    iterable = loop.operands[0].owner.operation if loop.name == "host.for" else None
    return (iterable is not None and string_attr(iterable, "qualname") in (
        "builtins.range", "builtins.enumerate") and string_attr(loop, "target") == name)


def _compiled_def(call, module) -> ir.Operation | None:
    """The `host.func` a call of a tf.function runs (by the callee's name, in the module)."""
    callee = producer(call.operands[0])
    if callee is None or callee.name != "host.load":
        return None
    name = string_attr(callee, "name")
    return next((f for f in walk(module) if f.name == "host.func"
                 and string_attr(f, "sym_name") == name), None)


def _parameter(call, func, value) -> str:
    """The parameter of `func` that `value` (an argument of `call`) binds."""
    params = [ir.StringAttr(a).value for a in ir.ArrayAttr(func.attributes["arg_names"])]
    positional = 0
    for keyword, arg in call_arguments(call):
        if arg == value:
            if keyword:
                return keyword if keyword in params else ""
            return params[positional] if positional < len(params) else ""
        positional += not keyword
    return ""


def _tensor_equivalent_uses(func, param: str) -> bool:
    """Whether every read of `param` in `func` is an argument of a TF call or a side of a
    comparison, where a tensor behaves as the Python number did."""
    for load in walk(func):
        if load.name != "host.load" or string_attr(load, "name") != param:
            continue
        for use in load.result.uses:
            user = use.owner
            if user.name == "host.compare":
                continue
            if user.name == "host.call" and use.operand_number > 0 and \
                    string_attr(user, "qualname").startswith("tensorflow."):
                continue
            return False
    return True


def _tensor_argument(call, value, arg: str, module) -> Assumption:
    func = _compiled_def(call, module)
    param = _parameter(call, func, value) if func is not None else ""
    if param and _tensor_equivalent_uses(func, param):
        return Assumption("tensor-argument", arg, "low", "proved",
                          f"`{string_attr(func, 'sym_name')}` uses `{param}` only in TF "
                          f"ops and comparisons")
    return Assumption("tensor-argument", arg, "medium", "speculated",
                      "the function is assumed to compute the same with a tensor in place "
                      "of the Python number (dtypes may differ)")


def run(module, pass_=None) -> None:
    for op in walk(module):
        loop = enclosing_loop(op)
        if loop is None:
            continue
        extra = []
        if op.name == "host.func" and "harp.decorators" in op.attributes and \
                TF_FUNCTION in str(op.attributes["harp.decorators"]):
            name = string_attr(op, "sym_name")
            message = (f"`@tf.function` `{name}` is defined inside {describe_loop(loop)}: "
                       f"every iteration creates and traces a new function; define it once "
                       f"before the loop")
        elif op.name == "host.call" and string_attr(op, "qualname") == TF_FUNCTION and \
                "harp.decorator" not in op.attributes:  # decorators: the host.func case
            message = (f"`tf.function(...)` is called inside {describe_loop(loop)}: every "
                       f"iteration creates and traces a new function; create it once before "
                       f"the loop")
        elif op.name == "host.call" and string_attr(op, "harp.compiled") == TF_FUNCTION:
            changing = [v for v in list(op.operands)[1:]
                        if not invariant_in(v, loop) and _python_scalar(v, loop)]
            if not changing:
                continue
            arg = value_name(changing[0]) or "an argument"
            message = (f"the tf.function is called with the Python value `{arg}`, which "
                       f"changes on every iteration of {describe_loop(loop)}: each new value "
                       f"traces a new graph; pass it as a tensor (`tf.constant({arg})`) or set "
                       f"`reduce_retracing=True` / an `input_signature`")
            extra = [_tensor_argument(op, changing[0], arg, module)]
        else:
            continue
        record_hint(op, HINT, message, [
            loop_runs(loop),
            Assumption("library", TF_FUNCTION, "low", "proved",
                       "the decorator resolves to tensorflow.function"),
        ] + extra)
