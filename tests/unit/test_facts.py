"""Fact propagation: kinds, their status and reasons, summaries, loop mutation sets."""

from torch_mlir import ir

from harp_ir.analysis import string_attr, walk
from harp_ir.frontend.facts import read
from harp_ir.frontend.lower import lower_source


def lowered(source):
    module = lower_source(source, "f.py")
    assert module.operation.verify()
    return module


def find(module, name, **attrs):
    return [op for op in walk(module.operation) if op.name == name
            and all(string_attr(op, k) == v for k, v in attrs.items())]


def strings(op, name):
    return [ir.StringAttr(a).value for a in ir.ArrayAttr(op.attributes[name])]


def test_kind_flows_through_slots_and_arithmetic(ctx):
    m = lowered("import torch\na = torch.ones(2)\nb = a\nc = b + 1\n")
    (binop,) = find(m, "host.binop")
    fact = read(binop)
    assert (fact.kind, fact.framework, fact.status) == ("tensor", "torch", "proved")


def test_speculated_fact_has_a_reason(ctx):
    m = lowered("import torch\nnet = torch.nn.Linear(2, 2)\ny = net(torch.ones(2))\n")
    (call,) = [op for op in find(m, "host.call") if read(op) and read(op).status ==
               "speculated"]
    assert read(call).kind == "tensor"
    assert "assumed to return a tensor" in read(call).reason


def test_interprocedural_return_fact(ctx):
    m = lowered("import tensorflow as tf\ndef f():\n    return tf.zeros([1])\nx = f()\n")
    call = [op for op in find(m, "host.call") if string_attr(op, "harp.kind_reason")][-1]
    assert read(call).kind == "tensor" and read(call).framework == "tf"


def test_disagreeing_returns_give_no_fact(ctx):
    m = lowered("import torch\ndef f(c):\n    if c:\n        return torch.ones(1)\n"
                "    return 3\nx = f(1)\n")
    last = find(m, "host.call")[-1]
    assert read(last) is None


def test_effect_summaries(ctx):
    src = ("import torch\nG = []\ndef pure(x):\n    return x + 1\n"
           "def noisy(x):\n    print(x)\n"
           "def rand():\n    return torch.randn(2)\n"
           "def push(x):\n    G.append(x)\n"
           "def fill(xs):\n    xs[0] = 1\n"
           "def local():\n    acc = []\n    acc.append(1)\n    return acc\n"
           "def opaque(f):\n    return f()\n")
    m = lowered(src)
    summary = {string_attr(f, "sym_name"): strings(f, "harp.effects")
               for f in find(m, "host.func")}
    assert summary == {"pure": ["pure"], "noisy": ["io"], "rand": ["random"],
                       "push": ["mutates-globals"], "fill": ["mutates-argument"],
                       "local": ["pure"], "opaque": ["unknown"]}


def test_call_to_a_pure_user_function_is_pure(ctx):
    m = lowered("def f(x):\n    return x * 2\ny = f(3)\n")
    assert string_attr(find(m, "host.call")[-1], "effect") == "pure"


def test_loop_mutation_set(ctx):
    m = lowered("total = 0\nfor x in xs:\n    total += x\n    seen.append(x)\n"
                "    model.weight = x\n    cache[x] = 1\n")
    (loop,) = find(m, "host.for")
    assert strings(loop, "harp.mutates") == ["cache", "model", "seen", "total", "x"]
    assert string_attr(loop, "harp.mutates_status") == "speculated"


def test_dynamic_features_are_recorded(ctx):
    m = lowered("exec(code)\ngetattr(o, n)\ngetattr(o, 'x')\n")
    mod = m.body.operations[0]
    features = [ir.StringAttr(ir.DictAttr(d)["feature"]).value
                for d in ir.ArrayAttr(mod.attributes["harp.dynamic"])]
    assert features == ["exec", "getattr with a non-constant name"]


def test_no_dynamic_attribute_on_a_plain_module(ctx):
    m = lowered("x = 1\n")
    assert "harp.dynamic" not in m.body.operations[0].attributes
