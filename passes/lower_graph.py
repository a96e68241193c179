"""--harp-lower-graph: put the computation graph beside the host code (the augmented
computation graph).

Rewrites: every `host.call` of a graph computation the API catalogue maps (`[[graph]]` in
api_catalogue.toml) and every tensor operator (`a @ w + b`) into the real dialect op:
`torch.aten.*` ops with `!torch.vtensor` types (verified by the registered torch dialect;
shapes and the dtype filled in where the source makes them known, as for
`torch.zeros(4, 3)`) and TensorFlow ops in generic form (`"tf.MatMul"`, unregistered, with
`tensor<*xf32>` types). Host values enter the graph through `host.to_graph` and results
come back through `host.from_graph`, which keeps the call's facts (`harp.kind`, ...), so
every crossing is an op; a graph value used by the next graph op stays in the graph.
Scalar arguments become the constants the dialect expects (`torch.constant.int`,
`"tf.Const"`); reductions over all axes use `tf.Range(0, tf.Rank(x), 1)`.

Keeps: a call whose arguments do not fit the op (a value that is not a constant where the
op needs one, an unknown keyword, `*args`) stays a `host.call` with its qualified name
and effect. The analysis passes read host calls, so `harp analyze` runs them before this
pass; run it with `harp-opt --harp-lower-graph` or `harp import --graph`.

Assumes: the qualified name resolves to the library (as every hint does) and an unknown
TF dtype is float32 in the types (tf ops are unregistered; the dtype is not checked).
"""

from __future__ import annotations

from torch_mlir import ir

from harp_ir import catalogue
from harp_ir.analysis import (
    NOT_CONSTANT,
    call_arguments,
    constant_value,
    producer,
    string_attr,
    value_kind,
    walk,
)
from harp_ir.rules import Rule

#: host.binop `op` -> (torch op on two tensors, torch op on a tensor and a number, tf op)
OPERATORS = {
    "add": ("torch.aten.add.Tensor", "torch.aten.add.Scalar", "tf.AddV2"),
    "sub": ("torch.aten.sub.Tensor", "torch.aten.sub.Scalar", "tf.Sub"),
    "mul": ("torch.aten.mul.Tensor", "torch.aten.mul.Scalar", "tf.Mul"),
    "truediv": ("torch.aten.div.Tensor", "torch.aten.div.Scalar", "tf.RealDiv"),
    "pow": ("torch.aten.pow.Tensor_Tensor", "torch.aten.pow.Tensor_Scalar", "tf.Pow"),
    "floordiv": ("torch.aten.floor_divide", "torch.aten.floor_divide.Scalar", "tf.FloorDiv"),
    "mod": ("torch.aten.remainder.Tensor", "torch.aten.remainder.Scalar", "tf.FloorMod"),
    "matmul": ("torch.aten.matmul", None, "tf.MatMul"),
}
#: host.unop `op` -> (torch op, tf op)
UNARY_OPERATORS = {"neg": ("torch.aten.neg", "tf.Neg")}
#: facts a graph result keeps from the host call it replaces
_FACTS = ("harp.kind", "harp.kind_status", "harp.kind_reason", "harp.framework", "qualname")


class _NoFit(Exception):  # noqa: N818  (the call stays a host.call)
    pass


def _type(text: str) -> ir.Type:
    return ir.Type.parse(text)


class _Builder:
    """Creates graph ops before `anchor`, at its location."""

    def __init__(self, anchor: ir.Operation, framework: str):
        self.anchor, self.framework = anchor, framework
        self.ip, self.loc = ir.InsertionPoint(anchor), anchor.location

    def create(self, name, operands, result, attrs=None) -> ir.Value:
        op = ir.Operation.create(name, results=[_type(result)], operands=list(operands),
                                 attributes=attrs or {}, loc=self.loc, ip=self.ip)
        return op.result

    # --- values -----------------------------------------------------------------------

    def tensor(self, value: ir.Value) -> ir.Value:
        """The graph value of a host value: through `host.to_graph`, or the graph value a
        `host.from_graph` of this framework brought back."""
        origin = producer(value)
        if origin is not None and origin.name == "host.from_graph" and \
                string_attr(origin, "framework") == self.framework:
            return origin.operands[0]
        if origin is not None and origin.name == "host.constant":
            raise _NoFit("a constant where a tensor is expected")
        return self.create("host.to_graph", [value], self.tensor_type(),
                           {"framework": ir.StringAttr.get(self.framework)})

    def tensor_type(self, dtype: str = "") -> str:
        if self.framework == "torch":
            return "!torch.vtensor"
        return f"tensor<*x{dtype or 'f32'}>"

    def constant(self, kind: str, value) -> ir.Value:
        if self.framework == "tf":
            return self.tf_constant(value)
        if value is None:
            return self.create("torch.constant.none", [], "!torch.none")
        if kind == "bool" or isinstance(value, bool):
            return self.create("torch.constant.bool", [], "!torch.bool",
                               {"value": ir.BoolAttr.get(value)})
        if kind == "str":
            return self.create("torch.constant.str", [], "!torch.str",
                               {"value": ir.StringAttr.get(value)})
        if isinstance(value, float):
            return self.create("torch.constant.float", [], "!torch.float",
                               {"value": ir.FloatAttr.get_f64(value)})
        return self.create("torch.constant.int", [], "!torch.int",
                           {"value": ir.IntegerAttr.get(ir.IntegerType.get_signless(64),
                                                        value)})

    def tf_constant(self, value) -> ir.Value:
        """A `tf.Const` built from typed attributes (no text to parse: `1e-07`, `inf`)."""
        with ir.Location.unknown():
            attr = self._tf_value(value)
        return self.create("tf.Const", [], str(attr.type), {"value": attr})

    @staticmethod
    def _tf_value(value) -> ir.DenseElementsAttr:
        i32, f32 = ir.IntegerType.get_signless(32), ir.F32Type.get()
        if isinstance(value, (list, tuple)):
            shaped = ir.RankedTensorType.get([len(value)], i32)
            attr = ir.DenseElementsAttr.get(
                [ir.IntegerAttr.get(i32, int(v)) for v in value], type=shaped) if value \
                else ir.DenseElementsAttr.get_splat(shaped, ir.IntegerAttr.get(i32, 0))
        elif isinstance(value, float):
            shaped = ir.RankedTensorType.get([], f32)
            attr = ir.DenseElementsAttr.get_splat(shaped, ir.FloatAttr.get(f32, value))
        else:
            shaped = ir.RankedTensorType.get([], i32)
            attr = ir.DenseElementsAttr.get_splat(shaped, ir.IntegerAttr.get(i32, int(value)))
        return attr

    def int_list(self, values: list[int]) -> ir.Value:
        if self.framework == "tf":
            return self.tf_constant(values)
        items = [self.constant("int", v) for v in values]
        return self.create("torch.prim.ListConstruct", items, "!torch.list<int>")

    def tensor_list(self, values: list[ir.Value]) -> list[ir.Value] | ir.Value:
        tensors = [self.tensor(v) for v in values]
        if self.framework == "tf":
            return tensors  # variadic operands
        return self.create("torch.prim.ListConstruct", tensors, "!torch.list<vtensor>")

    def all_axes(self, tensor: ir.Value) -> ir.Value:
        rank = self.create("tf.Rank", [tensor], "tensor<i32>")
        return self.create("tf.Range", [self.tf_constant(0), rank, self.tf_constant(1)],
                           "tensor<?xi32>")


def _const(value: ir.Value):
    """A Python constant, or a list of them from a list/tuple display; else NOT_CONSTANT."""
    found = constant_value(value)
    if found is not NOT_CONSTANT:
        return found
    origin = producer(value)
    if origin is not None and origin.name in ("host.list", "host.tuple"):
        items = [constant_value(v) for v in origin.operands]
        return NOT_CONSTANT if NOT_CONSTANT in items else items
    if origin is not None and origin.name == "host.unop" and \
            string_attr(origin, "op") in ("neg", "usub"):
        inner = constant_value(origin.operands[0])
        if isinstance(inner, (int, float)) and not isinstance(inner, bool):
            return -inner
    return NOT_CONSTANT


def _bind(spec: catalogue.GraphOp, call: ir.Operation) -> dict[str, object]:
    """The call's arguments by parameter name (a value, or `_DEFAULT`)."""
    args = call_arguments(call)
    if any(k.startswith("*") for k, _ in args):
        raise _NoFit("star arguments")
    positional = [v for k, v in args if not k]
    keywords = {k: v for k, v in args if k}
    names = [p.split(":")[0] for p in spec.params]
    bound: dict[str, object] = {}
    if ".Tensor." in spec.qualname:  # a method: the receiver is `self`
        callee = producer(call.operands[0])
        if callee is None or callee.name != "host.getattr":
            raise _NoFit("no receiver")
        positional.insert(0, callee.operands[0])
    for param in spec.params:
        name = param.split(":")[0]
        if param.endswith("*"):
            bound[name], positional = positional, []
        elif positional:
            bound[name] = positional.pop(0)
        elif name in keywords:
            bound[name] = keywords.pop(name)
    if positional or set(keywords) - set(names):
        raise _NoFit("arguments the op does not take")
    return bound


def _operand(b: _Builder, param: str, value, operands: list) -> None:
    """Append the dialect operand(s) for one parameter."""
    name, _, kind = param.partition(":")
    kind, _, default = kind.partition("=")
    optional = kind.endswith("?")
    kind = kind.rstrip("?*")
    if value is None:  # not passed
        if not default and kind not in ("none",):
            if kind == "axes" or optional:
                value = None
            else:
                raise _NoFit(f"missing `{name}`")
        python = None if default in ("", "None") else _parse_default(kind, default)
    elif kind == "" or kind == "tensor":
        operands.append(b.tensor(value))
        return
    elif kind == "tensors":
        origin = producer(value)
        if origin is None or origin.name not in ("host.list", "host.tuple"):
            raise _NoFit("not a list of tensors")
        items = b.tensor_list(list(origin.operands))
        operands.extend(items if isinstance(items, list) else [items])
        return
    elif kind == "ints" and isinstance(value, list):  # `ints*`: the rest, each a constant
        python = [_const(v) for v in value]
        if len(python) == 1 and isinstance(python[0], list):
            python = python[0]
        if not python or not all(isinstance(v, int) and not isinstance(v, bool)
                                 for v in python):
            raise _NoFit("not constant ints")
    else:
        python = _const(value)
        if python is NOT_CONSTANT:
            raise _NoFit(f"`{name}` is not a constant")
    if kind == "none":
        if python is not None:
            raise _NoFit(f"`{name}` is set")
        if b.framework == "torch":
            operands.append(b.constant("none", None))
        return
    if kind == "axes":
        if python is None:
            operands.append(b.all_axes(operands[0]))
        else:
            operands.append(b.tf_constant(python))
        return
    if kind == "ints":
        if not isinstance(python, (list, tuple)):
            python = [python]
        operands.append(b.int_list(list(python)))
        return
    if python is None and not optional:
        raise _NoFit(f"`{name}` is None")
    if kind == "tensor":
        operands.append(b.constant("none", None))
        return
    operands.append(b.constant(kind, python))


def _parse_default(kind: str, text: str):
    if kind == "str":
        return text
    if kind == "bool":
        return text == "True"
    return float(text) if "." in text else int(text)


def _result_type(b: _Builder, spec_op: str, bound: dict) -> str:
    """`!torch.vtensor<[4,3],f32>` for a factory with constant sizes; else unknown."""
    if b.framework == "tf":
        return b.tensor_type("i64" if spec_op in ("tf.ArgMax", "tf.ArgMin") else "")
    if spec_op in ("torch.aten.zeros", "torch.aten.ones"):
        sizes = [_const(v) for v in bound.get("size", [])]
        if len(sizes) == 1 and isinstance(sizes[0], list):
            sizes = sizes[0]
        if sizes and all(isinstance(s, int) for s in sizes):
            return f"!torch.vtensor<[{','.join(map(str, sizes))}],f32>"
    return "!torch.vtensor"


def _finish(call: ir.Operation, b: _Builder, result: ir.Value) -> None:
    """Bring the graph result back to the host in place of `call`'s result."""
    attrs = {"framework": ir.StringAttr.get(b.framework),
             "effect": ir.StringAttr.get("pure")}
    for name in _FACTS:
        if name in call.attributes:
            attrs[name] = call.attributes[name]
    back = ir.Operation.create("host.from_graph", results=[call.result.type],
                               operands=[result], attributes=attrs, loc=call.location,
                               ip=b.ip)
    call.result.replace_all_uses_with(back.result)
    callee = producer(call.operands[0]) if call.name == "host.call" else None
    call.erase()
    if callee is not None and callee.name == "host.getattr" and \
            not list(callee.result.uses):
        callee.erase()


def lower_call(call: ir.Operation, spec: catalogue.GraphOp) -> bool:
    b = _Builder(call, spec.framework)
    try:
        bound = _bind(spec, call)
        operands: list[ir.Value] = []
        for param in spec.params:
            _operand(b, param, bound.get(param.split(":")[0]), operands)
    except _NoFit:
        return False  # the constants and boundary ops made so far are removed by cleanup
    attrs = {"harp.qualname": ir.StringAttr.get(spec.qualname)}
    result = b.create(spec.op, operands, _result_type(b, spec.op, bound), attrs)
    _finish(call, b, result)
    return True


def lower_binop(op: ir.Operation) -> bool:
    names = OPERATORS.get(string_attr(op, "op"))
    framework = string_attr(op, "harp.framework")
    if names is None or framework not in ("torch", "tf") or len(op.operands) != 2:
        return False
    b = _Builder(op, framework)
    lhs, rhs = op.operands
    tensors = [value_kind(v) == "tensor" or _from_graph(v) for v in (lhs, rhs)]
    numbers = [_const(v) for v in (lhs, rhs)]
    try:
        if all(tensors):
            name = names[0] if framework == "torch" else names[2]
            operands = [b.tensor(lhs), b.tensor(rhs)]
        elif tensors[0] and isinstance(numbers[1], (int, float)) and names[1]:
            name = names[1] if framework == "torch" else names[2]
            operands = [b.tensor(lhs), b.constant("scalar", numbers[1])]
        else:
            return False
        if framework == "torch" and string_attr(op, "op") in ("add", "sub"):
            operands.append(b.constant("scalar", 1))
    except _NoFit:
        return False
    attrs = {"harp.qualname": ir.StringAttr.get(f"operator.{string_attr(op, 'op')}")}
    _finish(op, b, b.create(name, operands, b.tensor_type(), attrs))
    return True


def lower_unop(op: ir.Operation) -> bool:
    names = UNARY_OPERATORS.get(string_attr(op, "op"))
    framework = string_attr(op, "harp.framework")
    operand = op.operands[0]
    if names is None or framework not in ("torch", "tf") or not (
            value_kind(operand) == "tensor" or _from_graph(operand)):
        return False
    b = _Builder(op, framework)
    try:
        tensor = b.tensor(operand)
    except _NoFit:
        return False
    attrs = {"harp.qualname": ir.StringAttr.get(f"operator.{string_attr(op, 'op')}")}
    name = names[0] if framework == "torch" else names[1]
    _finish(op, b, b.create(name, [tensor], b.tensor_type(), attrs))
    return True


def _from_graph(value: ir.Value) -> bool:
    origin = producer(value)
    return origin is not None and origin.name == "host.from_graph"


#: host ops that compute nothing but their result: unused, they can go
_PURE_HOST = ("host.to_graph", "host.from_graph", "host.constant", "host.list", "host.tuple")


def _cleanup(module: ir.Operation) -> None:
    """Remove what the lowering left unused: the callee chains (`tf.nn`) and arguments of
    the calls it replaced, the constants of a lowering that did not fit, and boundary
    round trips; a module attribute (`qualname` set) is read without side effects."""
    changed = True
    while changed:
        changed = False
        for op in list(walk(module)):
            if (op.name.startswith(("torch.constant.", "torch.prim.ListConstruct", "tf.Const",
                                    "tf.Rank", "tf.Range")) or op.name in _PURE_HOST or (
                    op.name == "host.getattr" and "qualname" in op.attributes)) and \
                    all(not list(r.uses) for r in op.results):
                op.erase()
                changed = True


def run(module, pass_=None) -> None:
    graph_ops = catalogue.load().graph_ops
    for op in list(walk(module)):
        if op.name == "host.call":
            spec = graph_ops.get(string_attr(op, "qualname"))
            if spec is not None and string_attr(op, "effect") in ("pure", "graph_build"):
                lower_call(op, spec)
        elif op.name == "host.binop" and string_attr(op, "harp.kind") == "tensor" and \
                "inplace" not in op.attributes:
            lower_binop(op)
        elif op.name == "host.unop" and string_attr(op, "harp.kind") == "tensor":
            lower_unop(op)
    _cleanup(module)


RULE = Rule(
    flag="harp-lower-graph",
    summary="Lower catalogued graph computations to torch and tf dialect ops",
    run=run,
)
