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


def _kind_of_load(module, variable):
    """The kinds of the loads of `variable` in the module, in order."""
    return [string_attr(op, "harp.kind") for op in walk(module.operation)
            if op.name == "host.load" and string_attr(op, "name") == variable]


REGISTRY = """import torch
class A(torch.nn.Module):
    pass
class B(torch.nn.Module):
    pass
def make(name):
    cls = {"a": A, "b": B}[name]
    return cls()
def loose(name):
    cls = {"a": A, "n": 3}[name]
    return cls()
net = make("a")
other = loose("a")
net
other
"""


def test_a_registry_of_model_classes_makes_a_model(ctx):
    m = lowered(REGISTRY)
    assert _kind_of_load(m, "net")[-1] == "module"
    assert _kind_of_load(m, "other")[-1] == ""  # the entries disagree: no fact


def test_each_branch_starts_from_the_facts_before_the_if(ctx):
    m = lowered("import torch\nclass Net(torch.nn.Module):\n    pass\n"
                "def build(kind):\n    model = Net\n    if kind == 1:\n"
                "        model = model()\n    elif kind == 2:\n        model = model()\n"
                "    else:\n        model = model()\n    return model\nm = build(1)\nm\n")
    # each branch calls the class: before, the second called the first one's instance
    assert _kind_of_load(m, "m")[-1] == "module"


def test_a_helper_defined_below_its_caller_is_known(ctx):
    m = lowered("import torch\nclass Net(torch.nn.Module):\n    pass\n"
                "def build():\n    return _make()\n"
                "def _make():\n    return Net()\nnet = build()\nnet\n")
    assert _kind_of_load(m, "net")[-1] == "module"


def test_relowering_is_bounded(ctx):
    # a chain of helpers each defined below its caller needs one lowering per link;
    # harp stops after three, so the far end stays unknown rather than costing more
    chain = "".join(f"def f{i}():\n    return f{i + 1}()\n" for i in range(6))
    m = lowered("import torch\nclass Net(torch.nn.Module):\n    pass\n" + chain +
                "def f6():\n    return Net()\nnear = f4()\nfar = f0()\nnear\nfar\n")
    assert _kind_of_load(m, "near")[-1] == "module"
    assert _kind_of_load(m, "far")[-1] == ""
