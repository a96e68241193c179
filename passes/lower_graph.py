"""--harp-lower-graph: put the computation graph beside the host code (the augmented
computation graph).

Rewrites: every `host.call` of a graph computation the API catalogue maps (`[[graph]]` in
api_catalogue.toml, one table per overload: `torch.max(x)`, `torch.max(x, 1)`,
`torch.max(x, y)`) and every tensor operator (`a @ w + b`, `1 - p`) into the real dialect
op: `torch.aten.*` ops with `!torch.vtensor` types (verified by the registered torch
dialect; shapes and the dtype filled in where the source makes them known, as for
`torch.zeros(4, 3)`) and TensorFlow ops in generic form (`"tf.MatMul"`, unregistered, with
`tensor<*xf32>` types). Host values enter the graph through `host.to_graph`, typed as the
op takes them (a tensor, `!torch.int` for a size or dimension the host computes,
`!torch.Device`, a list), and results come back through `host.from_graph`, which keeps
the call's facts (`harp.kind`, ...), so every crossing is an op; a graph value used by the
next graph op stays in the graph. Constant arguments become the dialect's constants
(`torch.constant.int`, `"tf.Const"`); reductions over all axes use
`tf.Range(0, tf.Rank(x), 1)`. Operators follow what the framework dispatches: a number on
the right takes the `.Scalar` op, a number on the left the reflected operator (`2 - t` is
`rsub(t, 2)`), a host value of unknown kind is wrapped as a tensor (as PyTorch and TF wrap
a Python number).

Keeps: a call whose arguments fit no overload (an unknown keyword, `*args`, a string where
a shape belongs) stays a `host.call` with its qualified name and effect. The analysis
passes read host calls, so `harp analyze` runs them before this pass; run it with
`harp-opt --harp-lower-graph` or `harp import --graph`.

Assumes: the qualified name resolves to the library (as every hint does) and an unknown
TF dtype is float32 in the types (tf ops are unregistered; the dtype is not checked).
"""

from __future__ import annotations

import ast

from torch_mlir import ir

from harp_ir import catalogue
from harp_ir.analysis import (
    NOT_CONSTANT,
    call_arguments,
    constant_value,
    producer,
    string_attr,
    strings_attr,
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
#: host.binop bitwise `op` -> (torch op on two tensors, torch op on a tensor and a number,
#: tf op on bools, tf op on integers): TF's `&` is logical on bools and bitwise on integers,
#: so a TF operator is lowered only when its operands' element type says which
BITWISE = {
    "bitand": ("torch.aten.bitwise_and.Tensor", "torch.aten.bitwise_and.Scalar",
               "tf.LogicalAnd", "tf.BitwiseAnd"),
    "bitor": ("torch.aten.bitwise_or.Tensor", None, "tf.LogicalOr", "tf.BitwiseOr"),
    "bitxor": ("torch.aten.bitwise_xor.Tensor", None, None, "tf.BitwiseXor"),
    "lshift": ("torch.aten.bitwise_left_shift.Tensor", "torch.aten.__lshift__.Scalar",
               None, "tf.LeftShift"),
    "rshift": ("torch.aten.bitwise_right_shift.Tensor", "torch.aten.__rshift__.Scalar",
               None, "tf.RightShift"),
}
#: host.compare `op` -> (torch op on two tensors, torch op on a tensor and a number, tf op,
#: the comparison with its sides swapped: `2 < t` is `t > 2`). TF's `==` compares tensors
#: element-wise only under TF2's equality setting (in a TF1 graph it compares identity), so
#: `==` and `!=` on TF tensors stay host operators.
COMPARISONS = {
    "lt": ("torch.aten.lt.Tensor", "torch.aten.lt.Scalar", "tf.Less", "gt"),
    "gt": ("torch.aten.gt.Tensor", "torch.aten.gt.Scalar", "tf.Greater", "lt"),
    "le": ("torch.aten.le.Tensor", "torch.aten.le.Scalar", "tf.LessEqual", "ge"),
    "ge": ("torch.aten.ge.Tensor", "torch.aten.ge.Scalar", "tf.GreaterEqual", "le"),
    "eq": ("torch.aten.eq.Tensor", "torch.aten.eq.Scalar", None, "eq"),
    "ne": ("torch.aten.ne.Tensor", "torch.aten.ne.Scalar", None, "ne"),
}
#: facts a graph result keeps from the host call it replaces
_FACTS = ("harp.kind", "harp.kind_status", "harp.kind_reason", "harp.framework", "qualname")


class _NoFit(Exception):  # noqa: N818  (the call stays a host.call)
    pass


def _type(text: str) -> ir.Type:
    return ir.Type.parse(text)


#: host scalar kinds -> the type a host value of that kind has in the graph
_SCALAR_TYPES = {
    "torch": {"int": "!torch.int", "float": "!torch.float", "scalar": "!torch.number",
              "bool": "!torch.bool", "str": "!torch.str", "ints": "!torch.list<int>",
              "tensors": "!torch.list<vtensor>", "device": "!torch.Device",
              "dtype": "!torch.int"},
    "tf": {"int": "tensor<i32>", "float": "tensor<f32>", "scalar": "tensor<f32>",
           "bool": "tensor<i1>", "ints": "tensor<?xi32>"},
}
#: torch dtypes -> c10::ScalarType, the integer the aten ops take as `dtype`
_TORCH_DTYPES = {
    "uint8": 0, "int8": 1, "int16": 2, "short": 2, "int32": 3, "int": 3, "int64": 4,
    "long": 4, "float16": 5, "half": 5, "float32": 6, "float": 6, "float64": 7,
    "double": 7, "complex64": 9, "cfloat": 9, "complex128": 10, "cdouble": 10, "bool": 11,
    "bfloat16": 15,
}
#: tf dtypes -> the element type of the tensor type
_TF_DTYPES = {"float32": "f32", "float64": "f64", "float16": "f16", "bfloat16": "bf16",
              "int32": "i32", "int64": "i64", "int8": "i8", "int16": "i16", "uint8": "ui8",
              "bool": "i1", "complex64": "complex<f32>", "complex128": "complex<f64>"}
#: torch loss `reduction` strings -> the integer the aten ops take
_REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}


class _Builder:
    """Creates graph ops before `anchor`, at its location. `strict`: a parameter accepts
    only values known to be of its kind (the first try over a call's overloads)."""

    def __init__(self, anchor: ir.Operation, framework: str, strict: bool = False):
        self.anchor, self.framework, self.strict = anchor, framework, strict
        self.ip, self.loc = ir.InsertionPoint(anchor), anchor.location
        self.element = ""  # a TF result's element type, when a `dtype` argument says it

    def create(self, name, operands, result, attrs=None, results=1) -> ir.Operation:
        return ir.Operation.create(name, results=[_type(result)] * results,
                                   operands=list(operands), attributes=attrs or {},
                                   loc=self.loc, ip=self.ip)

    def value(self, name, operands, result, attrs=None) -> ir.Value:
        return self.create(name, operands, result, attrs).result

    def enter(self, value: ir.Value, type_: str) -> ir.Value:
        """A host value entering the graph as `type_`."""
        return self.value("host.to_graph", [value], type_,
                          {"framework": ir.StringAttr.get(self.framework)})

    # --- values -----------------------------------------------------------------------

    def tensor(self, value: ir.Value) -> ir.Value:
        """The graph value of a tensor argument: the graph value a `host.from_graph` of
        this framework brought back, a constant number as the framework wraps it (PyTorch
        passes `t * 2` to `mul.Tensor` with 2 as a wrapped-number tensor), or the host
        value through `host.to_graph` (a value of unknown kind is wrapped the same way
        when it is a number)."""
        origin = producer(value)
        if origin is not None and origin.name == "host.from_graph" and \
                string_attr(origin, "framework") == self.framework:
            return origin.operands[0]
        if not _is_tensor(value):
            number = _const(value)
            if self.strict or number is not NOT_CONSTANT and (
                    not isinstance(number, (int, float)) or isinstance(number, bool)):
                raise _NoFit("not a tensor")
            if number is not NOT_CONSTANT:
                if self.framework == "tf":
                    return self.tf_constant(number)
                return self.value("torch.prim.NumToTensor.Scalar",
                                  [self.constant("scalar", number)], "!torch.vtensor")
        return self.enter(value, self.tensor_type())

    def tensor_type(self, dtype: str = "") -> str:
        if self.framework == "torch":
            return "!torch.vtensor"
        return f"tensor<*x{dtype or self.element or 'f32'}>"

    def scalar(self, kind: str, value: ir.Value) -> ir.Value:
        """A number, bool or string argument: a dialect constant, or the host value."""
        if _is_tensor(value):
            raise _NoFit("a tensor where a number is expected")
        python = _const(value)
        if python is not NOT_CONSTANT:
            if python is None:
                raise _NoFit("None where a value is expected")
            if kind in ("int", "bool") and not isinstance(python, (int, bool)) or \
                    kind in ("float", "scalar") and not isinstance(python, (int, float)) or \
                    kind == "str" and not isinstance(python, str):
                raise _NoFit(f"a {type(python).__name__} where {kind} is expected")
            return self.constant(kind, python)
        if self.strict and value_kind(value) != "scalar" or \
                kind not in _SCALAR_TYPES[self.framework]:
            raise _NoFit(f"a host value where a constant {kind} is expected")
        return self.enter(value, _SCALAR_TYPES[self.framework][kind])

    def constant(self, kind: str, value) -> ir.Value:
        if self.framework == "tf":
            return self.tf_constant(value)
        if value is None:
            return self.value("torch.constant.none", [], "!torch.none")
        if kind == "bool" or isinstance(value, bool):
            return self.value("torch.constant.bool", [], "!torch.bool",
                              {"value": ir.BoolAttr.get(bool(value))})
        if kind == "str":
            return self.value("torch.constant.str", [], "!torch.str",
                              {"value": ir.StringAttr.get(value)})
        if isinstance(value, float):
            return self.value("torch.constant.float", [], "!torch.float",
                              {"value": ir.FloatAttr.get_f64(value)})
        return self.value("torch.constant.int", [], "!torch.int",
                          {"value": ir.IntegerAttr.get(ir.IntegerType.get_signless(64),
                                                       value)})

    def tf_constant(self, value) -> ir.Value:
        """A `tf.Const` built from typed attributes (no text to parse: `1e-07`, `inf`)."""
        with ir.Location.unknown():
            attr = self._tf_value(value)
        return self.value("tf.Const", [], str(attr.type), {"value": attr})

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

    def int_list(self, values: list) -> ir.Value:
        """A list of ints, each a Python int or a host value (`x.view(n, -1)`)."""
        if self.framework == "tf":
            return self.tf_constant(values)
        items = [self.constant("int", v) if isinstance(v, int) else self.scalar("int", v)
                 for v in values]
        return self.value("torch.prim.ListConstruct", items, "!torch.list<int>")

    def ints(self, value) -> ir.Value:
        """A shape: a list display (or the rest of the positional arguments) of constant
        or host ints, one constant, or a host value that is the whole list."""
        if isinstance(value, list) and len(value) == 1 and (
                _is_sizes(value[0]) or _display(value[0]) is not None):
            value = value[0]
        if isinstance(value, list):
            items = value
        else:
            python = _const(value)
            if isinstance(python, int) and not isinstance(python, bool):
                return self.int_list([python])
            items = _display(value)
            if items is None:
                if _is_tensor(value) and not _is_sizes(value):
                    raise _NoFit("a tensor where a shape is expected")
                return self.enter(value, _SCALAR_TYPES[self.framework]["ints"])
        if not items:
            raise _NoFit("an empty shape")
        constants = [_const(v) for v in items]
        if all(isinstance(c, int) and not isinstance(c, bool) for c in constants):
            return self.int_list(constants)
        if self.framework == "tf":
            if isinstance(value, list):
                raise _NoFit("a shape of host values")
            return self.enter(value, _SCALAR_TYPES["tf"]["ints"])
        return self.int_list([c if isinstance(c, int) and not isinstance(c, bool) else v
                              for c, v in zip(constants, items, strict=True)])

    def tensor_list(self, value: ir.Value) -> list[ir.Value] | ir.Value:
        items = _display(value)
        if items is None:  # a list the host built: the whole list enters the graph
            if self.framework == "tf" or _is_tensor(value) or \
                    _const(value) is not NOT_CONSTANT:
                raise _NoFit("not a list of tensors")
            return self.enter(value, _SCALAR_TYPES["torch"]["tensors"])
        tensors = [self.tensor(v) for v in items]
        if self.framework == "tf":
            return tensors  # variadic operands
        return self.value("torch.prim.ListConstruct", tensors, "!torch.list<vtensor>")

    def dtype(self, value: ir.Value) -> ir.Value | None:
        """A `dtype` argument: torch takes the ScalarType number as an operand; in TF it
        is the element type of the result (None: no operand)."""
        python = _const(value)
        name = _dtype_name(value)
        if self.framework == "tf":
            if name not in _TF_DTYPES:
                raise _NoFit("a dtype harp does not know")
            self.element = _TF_DTYPES[name]
            return None
        if python is None:
            return self.constant("none", None)
        if name in _TORCH_DTYPES:
            return self.constant("int", _TORCH_DTYPES[name])
        if python is not NOT_CONSTANT:
            raise _NoFit("a dtype harp does not know")
        return self.enter(value, _SCALAR_TYPES["torch"]["dtype"])

    def device(self, value: ir.Value) -> ir.Value:
        python = _const(value)
        if python is None:
            return self.constant("none", None)
        if isinstance(python, str):
            return self.value("torch.constant.device", [], "!torch.Device",
                              {"value": ir.StringAttr.get(python)})
        if python is not NOT_CONSTANT or _is_tensor(value):
            raise _NoFit("not a device")
        return self.enter(value, _SCALAR_TYPES["torch"]["device"])

    def all_axes(self, tensor: ir.Value) -> ir.Value:
        rank = self.value("tf.Rank", [tensor], "tensor<i32>")
        return self.value("tf.Range", [self.tf_constant(0), rank, self.tf_constant(1)],
                          "tensor<?xi32>")


def _is_tensor(value: ir.Value) -> bool:
    return value_kind(value) == "tensor" or _from_graph(value)


def _display(value: ir.Value) -> list[ir.Value] | None:
    """The items of a list or tuple display, else None."""
    origin = producer(value)
    if origin is not None and origin.name in ("host.list", "host.tuple"):
        return list(origin.operands)
    return None


def _is_sizes(value: ir.Value) -> bool:
    """`x.shape` or `x.size()`: a whole shape, not one size."""
    origin = producer(value)
    if origin is None:
        return False
    if origin.name == "host.getattr":
        return string_attr(origin, "attr") == "shape"
    return origin.name == "host.call" and string_attr(origin, "method") == "size" and \
        len(origin.operands) == 1


def _dtype_name(value: ir.Value) -> str:
    """`float32` for `torch.float32`, `tf.float32` or "float32"; else ""."""
    python = _const(value)
    if isinstance(python, str):
        return python
    origin = producer(value)
    qualname = string_attr(origin, "qualname") if origin is not None else ""
    if qualname.startswith(("torch.", "tensorflow.")) and qualname.count(".") == 1:
        return qualname.split(".")[1]
    return ""


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
    """The call's arguments by parameter name (a value, or `_DEFAULT`). A parameter
    named `_x` is never passed: it is the op's operand that the API fixes."""
    args = call_arguments(call)
    if any(k.startswith("*") for k, _ in args):
        raise _NoFit("star arguments")
    positional = [v for k, v in args if not k]
    keywords = {k: v for k, v in args if k}
    names = [p.split(":")[0] for p in spec.params if not p.startswith("_")]
    bound: dict[str, object] = {}
    if ".Tensor." in spec.qualname:  # a method: the receiver is `self`
        callee = producer(call.operands[0])
        if callee is None or callee.name != "host.getattr":
            raise _NoFit("no receiver")
        positional.insert(0, callee.operands[0])
    for param in spec.params:
        name = param.split(":")[0]
        if name.startswith("_"):
            continue
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
    if value is not None and kind in ("", "tensor") and not (
            optional and _const(value) is None):
        operands.append(b.tensor(value))
        return
    if value is not None and kind == "tensors":
        items = b.tensor_list(value)
        operands.extend(items if isinstance(items, list) else [items])
        return
    if value is not None and kind == "ints":
        operands.append(b.ints(value))
        return
    if value is not None and kind == "dtype":
        found = b.dtype(value)
        if found is not None:
            operands.append(found)
        return
    if value is not None and kind == "device":
        operands.append(b.device(value))
        return
    if value is not None and kind == "reduction":
        if _const(value) not in _REDUCTIONS:
            raise _NoFit("an unknown reduction")
        operands.append(b.constant("int", _REDUCTIONS[_const(value)]))
        return
    if value is not None and kind not in ("none", "axes") and _const(value) is not None:
        operands.append(b.scalar(kind, value))
        return
    python = _const(value) if value is not None else None
    if value is None:  # not passed: the default
        if not default and kind not in ("none", "dtype", "device") and kind != "axes" and \
                not optional:
            raise _NoFit(f"missing `{name}`")
        python = None if default in ("", "None") else _parse_default(kind, default)
    elif python is NOT_CONSTANT:
        raise _NoFit(f"`{name}` is not a constant")
    if kind in ("none", "dtype", "device"):
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
    if kind == "reduction":
        python = _REDUCTIONS[python]
    if kind == "ints":
        operands.append(b.int_list(list(python) if isinstance(python, (list, tuple))
                                   else [python]))
        return
    if python is None and not optional:
        raise _NoFit(f"`{name}` is None")
    operands.append(b.constant(kind, python))


def _parse_default(kind: str, text: str):
    if kind in ("str", "reduction"):
        return text
    return ast.literal_eval(text)


def _result_type(b: _Builder, spec_op: str, bound: dict) -> str:
    """`!torch.vtensor<[4,3],f32>` for a factory with constant sizes; else unknown."""
    if b.framework == "tf":
        return b.tensor_type("i64" if spec_op in ("tf.ArgMax", "tf.ArgMin") else "")
    if spec_op in ("torch.aten.zeros", "torch.aten.ones") and "dtype" not in bound:
        sizes = bound.get("size", [])
        if len(sizes) == 1 and _display(sizes[0]) is not None:
            sizes = _display(sizes[0])
        sizes = [_const(v) for v in sizes]
        if sizes and all(isinstance(s, int) and not isinstance(s, bool) for s in sizes):
            return f"!torch.vtensor<[{','.join(map(str, sizes))}],f32>"
    return "!torch.vtensor"


def _finish(call: ir.Operation, b: _Builder, results: list[ir.Value]) -> None:
    """Bring the graph results back to the host in place of `call`'s result: one value,
    or the tuple of them (`values, indices = torch.max(x, 1)`)."""
    attrs = {"framework": ir.StringAttr.get(b.framework),
             "effect": ir.StringAttr.get("pure")}
    for name in _FACTS:
        if name in call.attributes:
            attrs[name] = call.attributes[name]
    back = [ir.Operation.create("host.from_graph", results=[call.result.type],
                                operands=[r], attributes=attrs, loc=call.location,
                                ip=b.ip).result for r in results]
    if len(back) > 1:
        back = [ir.Operation.create("host.tuple", results=[call.result.type], operands=back,
                                    loc=call.location, ip=b.ip).result]
    call.result.replace_all_uses_with(back[0])
    callee = producer(call.operands[0]) if call.name == "host.call" else None
    call.erase()
    if callee is not None and callee.name == "host.getattr" and \
            not list(callee.result.uses):
        callee.erase()


def lower_call(call: ir.Operation, specs: tuple[catalogue.GraphOp, ...]) -> bool:
    """Lower `call` to the first overload its arguments fit: first taking only values
    known to be of each parameter's kind, then values of unknown kind too."""
    for strict in (True, False):
        for spec in specs:
            b = _Builder(call, spec.framework, strict)
            try:
                bound = _bind(spec, call)
                operands: list[ir.Value] = []
                for param in spec.params:
                    _operand(b, param, bound.get(param.split(":")[0]), operands)
            except _NoFit:
                continue  # the constants and boundary ops made so far are removed by cleanup
            attrs = {"harp.qualname": ir.StringAttr.get(spec.qualname)}
            if spec.op == "tf.Cast":
                attrs["DstT"] = ir.TypeAttr.get(_type(b.element or "f32"))
            op = b.create(spec.op, operands, _result_type(b, spec.op, bound), attrs,
                          spec.results)
            _finish(call, b, list(op.results))
            return True
    return False


#: the operators Python calls on the right operand when the left one is a number
#: (`2 - t` is `t.__rsub__(2)`): host.binop `op` -> torch op taking (tensor, number)
_REFLECTED = {"add": "torch.aten.add.Tensor", "mul": "torch.aten.mul.Tensor",
              "sub": "torch.aten.rsub.Scalar", "pow": "torch.aten.pow.Scalar",
              "mod": "torch.aten.remainder.Scalar_Tensor"}


def lower_binop(op: ir.Operation) -> bool:
    """A tensor operator as the op the framework dispatches to. A constant number on the
    right takes the `.Scalar` op; on the left, the reflected operator (`2 - t` is
    `rsub(t, 2)`, `1 / t` is `t.reciprocal() * 1`); a host value of unknown kind is
    passed as PyTorch and TF pass a number: wrapped as a tensor."""
    opname = string_attr(op, "op")
    names = OPERATORS.get(opname)
    framework = string_attr(op, "harp.framework")
    if names is None or framework not in ("torch", "tf") or len(op.operands) != 2:
        return False
    b = _Builder(op, framework)
    lhs, rhs = op.operands
    numbers = [_const(v) for v in (lhs, rhs)]
    number = [isinstance(n, (int, float)) and not isinstance(n, bool) for n in numbers]
    if not (_is_tensor(lhs) or _is_tensor(rhs)) or NOT_CONSTANT not in numbers:
        return False
    try:
        alpha = framework == "torch" and opname in ("add", "sub")
        if framework == "tf":
            name, operands, alpha = names[2], [b.tensor(lhs), b.tensor(rhs)], False
        elif number[1] and names[1]:
            name, operands = names[1], [b.tensor(lhs), b.constant("scalar", numbers[1])]
        elif number[0] and opname == "truediv":
            inverse = b.value("torch.aten.reciprocal", [b.tensor(rhs)], b.tensor_type())
            name, operands = "torch.aten.mul.Scalar", [
                inverse, b.constant("scalar", numbers[0])]
        elif number[0] and opname in _REFLECTED:
            name = _REFLECTED[opname]
            if name.endswith(".Tensor"):  # commutative: t.__rmul__(2) is mul(t, 2)
                operands = [b.tensor(rhs), b.tensor(lhs)]
            elif opname == "sub":
                operands = [b.tensor(rhs), b.constant("scalar", numbers[0])]
            else:
                operands = [b.constant("scalar", numbers[0]), b.tensor(rhs)]
                alpha = False
        elif number[0]:
            return False
        else:
            name, operands = names[0], [b.tensor(lhs), b.tensor(rhs)]
        if alpha:
            operands.append(b.constant("scalar", 1))
    except _NoFit:
        return False
    attrs = {"harp.qualname": ir.StringAttr.get(f"operator.{opname}")}
    _finish(op, b, [b.value(name, operands, b.tensor_type(), attrs)])
    return True


def _tensor_and_number(op: ir.Operation) -> tuple[list, list[bool]] | None:
    """A tensor operator's two operands as constants (NOT_CONSTANT where not) and which
    are numbers; None when neither is a tensor or both are constants."""
    if len(op.operands) != 2:
        return None
    numbers = [_const(v) for v in op.operands]
    if not any(_is_tensor(v) for v in op.operands) or NOT_CONSTANT not in numbers:
        return None
    return numbers, [isinstance(n, (int, float)) and not isinstance(n, bool)
                     for n in numbers]


def _element(value: ir.Value) -> str:
    """The element type of a TF graph value: "bool", "int" or "" (unknown or other)."""
    element = value.type.element_type if isinstance(value.type, ir.ShapedType) else None
    if not isinstance(element, ir.IntegerType):
        return ""
    return "bool" if element.width == 1 else "int"


def lower_compare(op: ir.Operation) -> bool:
    """A comparison with a tensor (`x < y`, `t > 0.5`, `0.5 <= t`) as the framework's
    element-wise op, with a boolean tensor as its result; a chain (`a < b < c`) calls
    `bool()` on a tensor and stays on the host."""
    ops = strings_attr(op, "ops")
    framework = string_attr(op, "harp.framework")
    operands = _tensor_and_number(op)
    if len(ops) != 1 or framework not in ("torch", "tf") or operands is None:
        return False
    opname = ops[0]
    if opname not in COMPARISONS:
        return False
    (_, _), number = operands
    lhs, rhs = op.operands
    if number[0]:  # `2 < t` is `t > 2`
        opname, lhs, rhs, number = COMPARISONS[opname][3], rhs, lhs, number[::-1]
    tensor_op, scalar_op, tf_op, _ = COMPARISONS[opname]
    b = _Builder(op, framework)
    try:
        if framework == "tf":
            if tf_op is None:
                return False
            name, args = tf_op, [b.tensor(lhs), b.tensor(rhs)]
        elif number[1]:
            name, args = scalar_op, [b.tensor(lhs), b.constant("scalar", _const(rhs))]
        else:
            name, args = tensor_op, [b.tensor(lhs), b.tensor(rhs)]
    except _NoFit:
        return False
    attrs = {"harp.qualname": ir.StringAttr.get(f"operator.{opname}")}
    _finish(op, b, [b.value(name, args, b.tensor_type("i1"), attrs)])
    return True


def lower_bitwise(op: ir.Operation) -> bool:
    """`&`, `|`, `^`, `<<`, `>>` with a tensor as the framework's op. A number on the left
    of `&`, `|`, `^` is moved to the right (they commute); of a shift, it stays a host
    operator."""
    opname = string_attr(op, "op")
    framework = string_attr(op, "harp.framework")
    operands = _tensor_and_number(op)
    if opname not in BITWISE or framework not in ("torch", "tf") or operands is None:
        return False
    numbers, number = operands
    lhs, rhs = op.operands
    if number[0]:
        if opname in ("lshift", "rshift"):
            return False
        lhs, rhs, numbers, number = rhs, lhs, numbers[::-1], number[::-1]
    tensor_op, scalar_op, tf_bool_op, tf_int_op = BITWISE[opname]
    b = _Builder(op, framework)
    try:
        if framework == "tf":
            args = [b.tensor(lhs), b.tensor(rhs)]
            kinds = {_element(a) for a in args}
            name = tf_bool_op if kinds == {"bool"} else tf_int_op if kinds == {"int"} \
                else None
            if name is None:
                return False
            result = str(args[0].type)
        elif number[1] and scalar_op:
            name, args = scalar_op, [b.tensor(lhs), b.constant("scalar", numbers[1])]
            result = b.tensor_type()
        else:
            name, args, result = tensor_op, [b.tensor(lhs), b.tensor(rhs)], b.tensor_type()
    except _NoFit:
        return False
    attrs = {"harp.qualname": ir.StringAttr.get(f"operator.{opname}")}
    _finish(op, b, [b.value(name, args, result, attrs)])
    return True


def lower_unop(op: ir.Operation) -> bool:
    names = UNARY_OPERATORS.get(string_attr(op, "op"))
    framework = string_attr(op, "harp.framework")
    operand = op.operands[0]
    if names is None or framework not in ("torch", "tf") or not _is_tensor(operand):
        return False
    b = _Builder(op, framework)
    try:
        tensor = b.tensor(operand)
    except _NoFit:
        return False
    attrs = {"harp.qualname": ir.StringAttr.get(f"operator.{string_attr(op, 'op')}")}
    name = names[0] if framework == "torch" else names[1]
    _finish(op, b, [b.value(name, [tensor], b.tensor_type(), attrs)])
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
            if (op.name.startswith(("torch.constant.", "torch.prim.ListConstruct",
                                    "torch.prim.NumToTensor", "tf.Const", "tf.Rank",
                                    "tf.Range")) or op.name in _PURE_HOST or (
                    op.name == "host.getattr" and "qualname" in op.attributes)) and \
                    all(not list(r.uses) for r in op.results):
                op.erase()
                changed = True


def run(module, pass_=None) -> None:
    graph_ops = catalogue.load().graph_ops
    for op in list(walk(module)):
        if op.name == "host.call":
            specs = graph_ops.get(string_attr(op, "qualname"))
            if specs is not None and string_attr(op, "effect") in ("pure", "graph_build"):
                lower_call(op, specs)
        elif op.name == "host.binop" and string_attr(op, "harp.kind") == "tensor" and \
                "inplace" not in op.attributes:
            (lower_bitwise if string_attr(op, "op") in BITWISE else lower_binop)(op)
        elif op.name == "host.compare" and string_attr(op, "harp.kind") == "tensor":
            lower_compare(op)
        elif op.name == "host.unop" and string_attr(op, "harp.kind") == "tensor":
            lower_unop(op)
    _cleanup(module)


RULE = Rule(
    flag="harp-lower-graph",
    summary="Lower catalogued graph computations to torch and tf dialect ops",
    run=run,
)
