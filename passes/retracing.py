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

import libcst as cst
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
    strings_attr,
    value_name,
    walk,
)
from harp_ir.codemods import Decline, hoist, node_at, syntax, unproved
from harp_ir.frontend.names import dotted_name
from harp_ir.rules import Fix, HintSpec, Rule

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
    params = strings_attr(func, "arg_names")
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
        if op.name == "host.func" and TF_FUNCTION in strings_attr(op, "harp.decorators"):
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


# --- the fix ------------------------------------------------------------------------------

def _free_names(node) -> set[str]:
    """The names a def or lambda reads that it does not bind itself (its closure and
    globals): a trace bakes their values in."""
    v = syntax.names([node])
    params = set()
    if isinstance(node, (cst.FunctionDef, cst.Lambda)):
        params = {p.name.value for p in _all_params(node.params)}
    return v.loaded - v.stored - params


def _all_params(params: cst.Parameters):
    star = [params.star_arg] if isinstance(params.star_arg, cst.Param) else []
    kwargs = [params.star_kwarg] if params.star_kwarg else []
    return [*params.posonly_params, *params.params, *star, *params.kwonly_params, *kwargs]


def _hoist_definition(module, def_stmt, parents):
    """Move a `def` (with its decorators) from a loop body to just before the loop."""
    block = parents.get(def_stmt)
    loop = parents.get(block)
    if not isinstance(loop, (cst.For, cst.While)):
        raise Decline("only a definition directly in the loop body is hoisted")
    name = def_stmt.name.value
    body = list(block.body)
    index = body.index(def_stmt)
    others = body[:index] + body[index + 1:]
    if name in syntax.names(body[:index]).loaded:
        raise Decline(f"`{name}` is read in the loop before it is defined")
    changing = (_free_names(def_stmt) - {name}) & syntax.loop_writes(loop)
    if changing:
        raise Decline(f"the function reads `{sorted(changing)[0]}`, which the loop changes: "
                      f"each trace bakes in its value")
    if others and index == 0:  # the new first statement starts right after the header
        others[0] = others[0].with_changes(leading_lines=[
            line for line in others[0].leading_lines if line.comment is not None])
    loop_stmt, _ = syntax.statement_of(loop, parents)
    new_loop = loop.with_changes(body=block.with_changes(
        body=others or [cst.SimpleStatementLine([cst.Pass()])]), leading_lines=[])
    comments = [line for line in def_stmt.leading_lines if line.comment is not None]
    hoisted = def_stmt.with_changes(leading_lines=[*loop_stmt.leading_lines, *comments])
    return module.deep_replace(loop_stmt, cst.FlattenSentinel([hoisted, new_loop]))


def fix_retracing(module, positions, hint):
    """Hoist a `@tf.function` def or a `tf.function(...)` out of the loop, or pass the
    changing Python number as a tensor."""
    defs = [n for n, r in positions.items() if isinstance(n, cst.FunctionDef)
            and r.start.line == hint.span.line]
    parents = syntax.parents(module)
    if defs:
        return _hoist_definition(module, defs[0], parents)
    call = node_at(positions, hint.span, cst.Call)
    if dotted_name(call.func).endswith("function"):  # `f = tf.function(g)` in the loop
        loop = syntax.enclosing_loop(call, parents)
        changing = set().union(*(_free_names(a.value) for a in call.args)) & \
            syntax.loop_writes(loop)
        if changing:
            raise Decline(f"the function reads `{sorted(changing)[0]}`, which the loop "
                          f"changes: each trace bakes in its value")
        return hoist.hoist(module, positions, hint, "tf.function")
    subject = next((a.subject for a in hint.assumptions if a.kind == "tensor-argument"), "")
    alias = syntax.module_alias(module, "tensorflow")
    if alias is None:
        raise Decline("`tensorflow` is not imported at module level")
    arg = next((a for a in call.args if module.code_for_node(a.value) == subject), None)
    if arg is None:
        raise Decline(f"no argument `{subject}` in the call")
    if not _only_cast(module, call, arg):
        unproved(f"an int32 or float32 tensor suits every op the function gives `{subject}` "
                 f"(a Python number takes the dtype each op needs, such as int64)")
    tensor = cst.parse_expression(f"{alias}.constant(x)").with_changes(
        args=[cst.Arg(arg.value)])
    return module.deep_replace(arg, arg.with_changes(value=tensor))


def _only_cast(module, call, arg) -> bool:
    """Whether the called function, defined in this module, uses the parameter `arg`
    binds only as the value of `tf.cast(param, dtype)`: any tensor dtype then gives the
    same result a Python number does."""
    name = dotted_name(call.func)
    defs = [n for n in syntax.walk(module) if isinstance(n, cst.FunctionDef) and
            n.name.value == name]
    if len(defs) != 1:
        return False
    params = _all_params(defs[0].params)
    index = list(call.args).index(arg)
    if arg.keyword is not None:
        param = next((p for p in params if p.name.value == arg.keyword.value), None)
    else:
        param = params[index] if index < len(params) and not arg.star else None
    if param is None:
        return False
    parents = syntax.parents(defs[0])
    uses = [n for n in syntax.walk(defs[0].body) if isinstance(n, cst.Name) and
            n.value == param.name.value]
    for use in uses:
        argument = parents.get(use)
        cast = parents.get(argument)
        if not (isinstance(argument, cst.Arg) and isinstance(cast, cst.Call) and
                dotted_name(cast.func).endswith(".cast") and cast.args[0] is argument):
            return False
    return bool(uses)


def _tensor_argument_risk(hint) -> str:
    risks = [a.risk for a in hint.assumptions if a.kind == "tensor-argument"]
    return "safe" if all(r == "low" for r in risks) else "unsafe"


RULE = Rule(
    flag="harp-retracing",
    summary="Find tf.functions retraced in loops (HARP102)",
    run=run,
    hint=HintSpec(
        id="HARP102",
        name="retracing",
        finds="a `tf.function` called in a loop with a Python value that changes per iteration, "
              "or defined inside the loop",
        why="each new Python value (or each new function object) makes TensorFlow trace the "
            "function again: Python-speed tracing and graph optimisation on every call instead "
            "of once",
        refactoring="pass tensors, set `input_signature` or `reduce_retracing`, hoist the "
                    "definition",
        before="for step in range(100):\n"
               "    loss = train_step(x, step)\n",
        after="for step in range(100):\n"
              "    loss = train_step(x, tf.constant(step))\n",
        assumptions=("library", "loop-runs", "tensor-argument"),
    ),
    fix=Fix(
        apply=fix_retracing,
        summary="safe (a number passed as a tensor: unsafe unless proved)",
        rewrite="a `@tf.function` def or `f = tf.function(g)` in a loop moves before it; a "
                "changing Python number argument is passed as `tf.constant(n)` (safe when the "
                "function uses it only in `tf.cast`, where any dtype gives the same result; "
                "otherwise `--unsafe-fixes`: a Python number takes the dtype each op needs, such"
                " as int64)",
        declines="the function closes over a name the loop changes (its trace would bake in one "
                 "value)",
        safety=_tensor_argument_risk,
        unsafe_because="a Python number passed as a tensor may change the dtype the "
                       "function computes in",
    ),
)
