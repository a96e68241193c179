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
             "ints*": "2, 2", "axes": "1"}


def call_source(qualname: str) -> str:
    """A program that calls `qualname` once on a tensor `t`, passing every parameter."""
    spec = GRAPH_OPS[qualname]
    torch = spec.framework == "torch"
    header = ("import torch\nt = torch.zeros(2, 2)\n" if torch else
              "import tensorflow as tf\nt = tf.zeros([2, 2])\n")
    args = []
    for param in spec.params:
        name, _, kind = param.partition(":")
        kind = kind.split("=")[0].rstrip("?")
        if kind != "none" and not (name == "self" and ".Tensor." in qualname):
            args.append(ARGUMENTS[kind])
    if ".Tensor." in qualname:
        callee = "t." + qualname.rsplit(".", 1)[1]
    else:
        callee = qualname if torch else "tf" + qualname.removeprefix("tensorflow")
    return f"{header}r = {callee}({', '.join(args)})\n"


def lowered(source: str):
    module = lower_source(source, "prog.py")
    build(["harp-lower-graph"]).run(module.operation)  # verifies the result
    return module


@pytest.mark.parametrize("qualname", sorted(GRAPH_OPS))
def test_every_mapped_api_lowers_to_an_op_that_verifies(ctx, qualname):
    module = lowered(call_source(qualname))
    assert module.operation.verify()
    ops = [op for op in walk(module.operation) if string_attr(op, "harp.qualname") == qualname]
    assert ops and {op.name for op in ops} == {GRAPH_OPS[qualname].op}, call_source(qualname)
    assert not any(string_attr(op, "qualname") == qualname for op in walk(module.operation)
                   if op.name == "host.call")


def test_the_mapping_covers_both_frameworks():
    frameworks = [spec.framework for spec in GRAPH_OPS.values()]
    assert frameworks.count("torch") >= 80 and frameworks.count("tf") >= 60


def test_a_call_that_does_not_fit_stays_a_host_call(ctx):
    module = lowered("import torch\nt = torch.zeros(2, 2)\nfor d in range(2):\n"
                     "    s = torch.softmax(t, dim=d)\n    u = torch.softmax(t, 1, out=t)\n")
    calls = [string_attr(op, "qualname") for op in walk(module.operation)
             if op.name == "host.call"]
    assert calls.count("torch.softmax") == 2  # a dimension that changes; an unknown keyword


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
]


@pytest.mark.parametrize(("framework", "expression", "name"), OPERATOR_CASES)
def test_every_python_operator_on_tensors_lowers(ctx, framework, expression, name):
    header = ("import torch\nt = torch.ones(2, 2)\nu = torch.ones(2, 2)\n"
              if framework == "torch" else
              "import tensorflow as tf\nt = tf.ones([2, 2])\nu = tf.ones([2, 2])\n")
    module = lowered(f"{header}r = {expression}\n")
    assert module.operation.verify()
    assert name in [op.name for op in walk(module.operation)], expression
