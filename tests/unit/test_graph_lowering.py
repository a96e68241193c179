"""--harp-lower-graph: every API the catalogue maps lowers to a dialect op that verifies;
calls that do not fit stay host calls; graph values stay in the graph."""

import pytest

from harp_ir.analysis import string_attr, walk
from harp_ir.catalogue import load
from harp_ir.frontend.lower import lower_source
from harp_ir.pipeline import build

GRAPH_OPS = load().graph_ops
#: an argument of each parameter kind, as source text
ARGUMENTS = {"": "t", "tensor": "t", "tensors": "[t, t]", "int": "1", "scalar": "2.0",
             "float": "2.0", "bool": "False", "str": '"tanh"', "ints": "[2, 2]",
             "ints*": "2, 2", "axes": "1", "dtype": "torch.float64", "device": '"cpu"',
             "reduction": '"sum"'}


def call_source(spec) -> str:
    """A program that calls `spec`'s API once on a tensor `t`, passing every parameter."""
    qualname = spec.qualname
    torch = spec.framework == "torch"
    header = ("import torch\nt = torch.zeros(2, 2)\n" if torch else
              "import tensorflow as tf\nt = tf.zeros([2, 2])\n")
    args, keywords = [], False  # after `ints*` (the rest), by keyword
    for param in spec.params:
        name, _, kind = param.partition(":")
        kind = kind.split("=")[0].rstrip("?")
        if kind == "none" or name.startswith("_") or \
                name == "self" and ".Tensor." in qualname:
            continue
        text = ARGUMENTS[kind] if torch or kind != "dtype" else "tf.float64"
        keywords = keywords or kind == "dtype"
        args.append(f"{name}={text}" if keywords else text)
        keywords = keywords or kind.endswith("*")
    if ".Tensor." in qualname:
        callee = "t." + qualname.rsplit(".", 1)[1]
    else:
        callee = qualname if torch else "tf" + qualname.removeprefix("tensorflow")
    return f"{header}r = {callee}({', '.join(args)})\n"


def lowered(source: str):
    module = lower_source(source, "prog.py")
    build(["harp-lower-graph"]).run(module.operation)  # verifies the result
    return module


@pytest.mark.parametrize(("qualname", "overload"),
                         [(q, i) for q in sorted(GRAPH_OPS) for i in range(len(GRAPH_OPS[q]))])
def test_every_mapped_api_lowers_to_an_op_that_verifies(ctx, qualname, overload):
    spec = GRAPH_OPS[qualname][overload]
    module = lowered(call_source(spec))
    assert module.operation.verify()
    ops = [op for op in walk(module.operation) if string_attr(op, "harp.qualname") == qualname]
    assert ops and {op.name for op in ops} == {spec.op}, call_source(spec)
    assert not any(string_attr(op, "qualname") == qualname for op in walk(module.operation)
                   if op.name == "host.call")


def test_the_mapping_covers_both_frameworks():
    frameworks = [specs[0].framework for specs in GRAPH_OPS.values()]
    assert frameworks.count("torch") >= 80 and frameworks.count("tf") >= 60


def test_a_call_that_does_not_fit_stays_a_host_call(ctx):
    module = lowered("import torch\nt = torch.zeros(2, 2)\nu = torch.softmax(t, 1, out=t)\n"
                     "v = torch.zeros(*t.shape)\nw = t.view('a')\n")
    calls = [string_attr(op, "qualname") for op in walk(module.operation)
             if op.name == "host.call"]
    # an unknown keyword; star arguments; a string where a shape is expected
    assert calls == ["torch.softmax", "torch.zeros", "torch.Tensor.view"]


def test_host_values_enter_the_graph_as_the_types_the_op_takes(ctx):
    module = lowered("import torch\nt = torch.zeros(2, 2)\nn = len([1, 2])\n"
                     "for d in range(2):\n    s = torch.softmax(t, dim=d)\n"
                     "    v = t.view(n, -1)\n    z = torch.zeros(n, 3, device=dev, "
                     "dtype=torch.float64)\n    q = torch.cat(parts)\n")
    assert not [op for op in walk(module.operation) if op.name == "host.call" and
                string_attr(op, "qualname").startswith("torch.")]
    entered = sorted(str(op.result.type) for op in walk(module.operation)
                     if op.name == "host.to_graph")
    # d (dim), n twice (a size), dev, parts; t twice as a tensor
    assert entered == ["!torch.Device", "!torch.int", "!torch.int", "!torch.int",
                       "!torch.list<vtensor>", "!torch.vtensor", "!torch.vtensor"]
    zeros = [op for op in walk(module.operation) if op.name == "torch.aten.zeros"][1]
    dtype = zeros.operands[1].owner
    assert dtype.name == "torch.constant.int" and ir_int(dtype) == 7  # float64


def ir_int(op) -> int:
    return int(str(op.attributes["value"]).split(":")[0])


def test_overloads_are_chosen_by_what_the_arguments_are(ctx):
    module = lowered("import torch\nt = torch.ones(2, 2)\nu = torch.ones(2, 2)\n"
                     "a = torch.max(t)\nb, i = torch.max(t, 1)\nc = torch.max(t, u)\n"
                     "d = torch.pow(t, 2)\ne = torch.pow(t, u)\n")
    names = [op.name for op in walk(module.operation) if "harp.qualname" in op.attributes
             and string_attr(op, "harp.qualname") != "torch.ones"]
    assert names == ["torch.aten.max", "torch.aten.max.dim", "torch.aten.maximum",
                     "torch.aten.pow.Tensor_Scalar", "torch.aten.pow.Tensor_Tensor"]
    values = next(op for op in walk(module.operation) if op.name == "torch.aten.max.dim")
    assert len(values.results) == 2


def test_graph_values_stay_in_the_graph(ctx):
    module = lowered("import torch\nt = torch.zeros(2, 2)\ny = torch.relu(torch.exp(t))\n")
    names = [op.name for op in walk(module.operation)]
    # zeros -> from_graph (stored in `t`), then one to_graph into exp -> relu -> from_graph
    assert names.count("host.to_graph") == 1 and names.count("host.from_graph") == 2
    relu = next(op for op in walk(module.operation) if op.name == "torch.aten.relu")
    assert relu.operands[0].owner.name == "torch.aten.exp"


OPERATOR_CASES = [  # (framework, expression on tensors t and u, the op it becomes)
    ("torch", "t + u", "torch.aten.add.Tensor"), ("torch", "t - 2.0", "torch.aten.sub.Scalar"),
    ("torch", "t * u", "torch.aten.mul.Tensor"), ("torch", "t / u", "torch.aten.div.Tensor"),
    ("torch", "t / 2.0", "torch.aten.div.Scalar"), ("torch", "t @ u", "torch.aten.matmul"),
    ("torch", "t ** u", "torch.aten.pow.Tensor_Tensor"),
    ("torch", "t ** 2", "torch.aten.pow.Tensor_Scalar"), ("torch", "-t", "torch.aten.neg"),
    ("torch", "t // u", "torch.aten.floor_divide"),
    ("torch", "t // 2", "torch.aten.floor_divide.Scalar"),
    ("torch", "t % u", "torch.aten.remainder.Tensor"),
    ("torch", "t % 2", "torch.aten.remainder.Scalar"),
    ("tf", "t // u", "tf.FloorDiv"), ("tf", "t % u", "tf.FloorMod"),
    ("tf", "t + u", "tf.AddV2"), ("tf", "t - u", "tf.Sub"), ("tf", "t * u", "tf.Mul"),
    ("tf", "t / u", "tf.RealDiv"), ("tf", "t @ u", "tf.MatMul"), ("tf", "t ** u", "tf.Pow"),
    ("tf", "-t", "tf.Neg"), ("tf", "t * 1e-07", "tf.Mul"),  # a float MLIR text would not parse
    # a number on the left: the operator Python calls on the tensor (`t.__rsub__(1)`)
    ("torch", "2 * t", "torch.aten.mul.Tensor"), ("torch", "1 - t", "torch.aten.rsub.Scalar"),
    ("torch", "1 / t", "torch.aten.reciprocal"), ("torch", "2 ** t", "torch.aten.pow.Scalar"),
    ("tf", "1.0 - t", "tf.Sub"),
    # a host value of unknown kind: passed as a wrapped number or a tensor, alike
    ("torch", "t * lr", "torch.aten.mul.Tensor"), ("torch", "lr - t", "torch.aten.sub.Tensor"),
    ("tf", "t + b['out']", "tf.AddV2"),
    # comparisons: a boolean tensor; a number on the left swaps the sides (`2 < t` is t > 2)
    ("torch", "t < u", "torch.aten.lt.Tensor"), ("torch", "t > 0.5", "torch.aten.gt.Scalar"),
    ("torch", "0.5 <= t", "torch.aten.ge.Scalar"), ("torch", "t >= u", "torch.aten.ge.Tensor"),
    ("torch", "t == u", "torch.aten.eq.Tensor"), ("torch", "t != 0", "torch.aten.ne.Scalar"),
    ("tf", "t < u", "tf.Less"), ("tf", "2.0 > t", "tf.Less"), ("tf", "t >= u", "tf.GreaterEqual"),
    # bitwise: torch's ops take bools and integers alike; TF's need the element type
    ("torch", "(t > 0) & (u > 0)", "torch.aten.bitwise_and.Tensor"),
    ("torch", "t & 1", "torch.aten.bitwise_and.Scalar"),
    ("torch", "1 & t", "torch.aten.bitwise_and.Scalar"),
    ("torch", "t | u", "torch.aten.bitwise_or.Tensor"),
    ("torch", "t ^ u", "torch.aten.bitwise_xor.Tensor"),
    ("torch", "t << 1", "torch.aten.__lshift__.Scalar"),
    ("torch", "t >> u", "torch.aten.bitwise_right_shift.Tensor"),
    ("tf", "(t > 0.0) & (u > 0.0)", "tf.LogicalAnd"),
    ("tf", "(t < u) | (t > 1.0)", "tf.LogicalOr"),
]

#: operators on tensors that stay host operators, and why
HOST_OPERATOR_CASES = [
    ("tf", "t == u", "host.compare"),  # identity in a TF1 graph, element-wise in TF2
    ("torch", "t < u < 2", "host.compare"),  # a chain calls bool() on a tensor
    ("torch", "1 << t", "host.binop"),  # a shift does not commute
    ("tf", "t & u", "host.binop"),  # logical or bitwise: the element type does not say
]


def operator_ops(framework: str, expression: str) -> list[str]:
    """The ops of `r = expression` on tensors `t` and `u`, lowered (the module verifies)."""
    header = ("import torch\nt = torch.ones(2, 2)\nu = torch.ones(2, 2)\n"
              if framework == "torch" else
              "import tensorflow as tf\nt = tf.ones([2, 2])\nu = tf.ones([2, 2])\n")
    module = lowered(f"{header}r = {expression}\n")
    assert module.operation.verify()
    return [op.name for op in walk(module.operation)]


@pytest.mark.parametrize(("framework", "expression", "name"), OPERATOR_CASES)
def test_every_python_operator_on_tensors_lowers(ctx, framework, expression, name):
    assert name in operator_ops(framework, expression), expression


@pytest.mark.parametrize(("framework", "expression", "name"), HOST_OPERATOR_CASES)
def test_an_operator_whose_op_is_not_known_stays_on_the_host(ctx, framework, expression,
                                                             name):
    assert name in operator_ops(framework, expression), expression


def test_an_int_where_a_bool_is_taken_lowers(ctx):
    """`torch.sum(x, 1, 1)`: keepdim given as 1, as Python allows (it crashed the pass)."""
    module = lowered("import torch\nx = torch.ones(2, 3)\ny = torch.sum(x, 1, 1)\n")
    assert module.operation.verify()
    assert "torch.aten.sum.dim_IntList" in [op.name for op in walk(module.operation)]
