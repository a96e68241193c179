import pytest
from torch_mlir import ir

from harp_ir.analysis import span, string_attr, walk
from harp_ir.frontend.lower import lower_source
from harp_ir.frontend.source import FrontendError


def ops(source, name=None):
    module = lower_source(source, "t.py")
    assert module.operation.verify()
    found = list(walk(module.operation))
    return [o for o in found if name is None or o.name == name]


def calls(source):
    return {string_attr(o, "qualname"): o for o in ops(source, "host.call")}


def test_import_alias_resolves_calls(ctx):
    c = calls("import torch.nn.functional as F\nF.relu(x)\n")
    assert "torch.nn.functional.relu" in c


def test_compat_v1_alias(ctx):
    c = calls("import tensorflow.compat.v1 as tf\ns = tf.Session()\n")
    assert "tensorflow.compat.v1.Session" in c


def test_from_import_alias(ctx):
    c = calls("from torch import nn as n\nlayer = n.Linear(2, 3)\n")
    assert string_attr(c["torch.nn.Linear"], "harp.kind") == "module"


def test_local_rebinding_of_a_library_module(ctx):
    c = calls("import torch\nF = torch.nn.functional\ny = F.softmax(x, 1)\n")
    assert "torch.nn.functional.softmax" in c


def test_method_on_a_proved_tensor(ctx):
    c = calls("import torch\nt = torch.ones(3)\nv = t.item()\n")
    item = c["torch.Tensor.item"]
    assert string_attr(item, "effect") == "sync"
    assert "harp.receiver_reason" not in item.attributes


def test_method_on_an_unknown_value_is_speculated_with_a_reason(ctx):
    c = calls("import torch\ndef f(t):\n    return t.item()\n")
    reason = string_attr(c["torch.Tensor.item"], "harp.receiver_reason")
    assert "`t` is assumed to be a torch tensor" in reason


def test_numpy_method_speculates_the_imported_framework(ctx):
    c = calls("import tensorflow as tf\ndef f(t):\n    return t.numpy()\n")
    assert "tensorflow.Tensor.numpy" in c


def test_unknown_method_stays_unresolved(ctx):
    c = calls("x.frobnicate()\n")
    assert "" in c and string_attr(c[""], "effect") == "unknown"


def test_shadowing_a_library_name_drops_the_resolution(ctx):
    c = calls("import torch\ntorch = make()\ntorch.zeros(1)\n")
    assert "torch.zeros" not in c


def test_float_of_a_tensor_is_a_sync(ctx):
    c = calls("import torch\nt = torch.randn(2)\nv = float(t)\nw = float('1.5')\n")
    syncs = [o for o in ops("import torch\nt = torch.randn(2)\nv = float(t)\nw = float('1')\n",
                            "host.call") if string_attr(o, "effect") == "sync"]
    assert len(syncs) == 1 and string_attr(syncs[0], "harp.receiver") == "t"
    assert "builtins.float" in c


def test_tensor_condition_is_a_sync_truth(ctx):
    truths = ops("import torch\nt = torch.zeros(1)\nif t > 0:\n    pass\nif 3:\n    pass\n",
                 "host.truth")
    assert [string_attr(t, "effect") for t in truths] == ["sync", ""]


def test_dataloader_batches_are_speculated_tensors(ctx):
    src = ("from torch.utils.data import DataLoader\nloader = DataLoader(ds)\n"
           "for x, y in loader:\n    x.cpu()\n")
    cpu = calls(src)["torch.Tensor.cpu"]
    assert "DataLoader" in string_attr(cpu, "harp.receiver_reason")


def test_nn_module_subclass_instances_are_modules(ctx):
    src = ("import torch\nclass Net(torch.nn.Module):\n    def forward(self, x):\n"
           "        return x\nnet = Net()\ny = net(torch.ones(1))\n")
    kinds = [string_attr(o, "harp.kind") for o in ops(src, "host.call")]
    assert "module" in kinds and "tensor" in kinds


def test_every_op_has_a_file_location(ctx):
    src = "import torch\nfor i in range(3):\n    x = torch.ones(i) + 1\n"
    for op in ops(src):
        where = span(op.location)
        assert where is not None and where.file == "t.py", op.name


def test_location_is_the_source_range(ctx):
    call = ops("\n\nresult = compute(1, 2)\n", "host.call")[0]
    where = span(call.location)
    assert (where.line, where.col, where.end_line, where.end_col) == (3, 10, 3, 23)


VALID_PYTHON = [
    "async def f():\n    async for x in y:\n        await x\n"
    "    async with a as b:\n        pass\n",
    "match p:\n    case [x, y]:\n        pass\n    case _:\n        pass\n",
    "f = lambda a, *b, **c: a\n",
    "if (n := len(a)) > 10:\n    pass\n",
    "def g():\n    x = 1\n    def h():\n        nonlocal x\n        x = 2\n    yield x\n",
    "class A:\n    class B:\n        pass\n",
    "try:\n    pass\nexcept* ValueError:\n    pass\n",
    "x = [i for i in range(3) if i]\ny = {k: v for k, v in d}\nz = (i for i in a)\n",
    "assert x, 'message'\nraise ValueError('x') from None\n",
    "print(*a, sep='')\nx = a[1:2, ::3, ...]\n",
    "def f(a, /, b, *, c=1):\n    return\n",
    "def f():\n    x = 1\n    return x\n",
    "for i in x:\n    break\nelse:\n    pass\nwhile True:\n    continue\n",
    "@decorator(arg)\n@other\nclass C(Base, metaclass=M):\n    x: int = 3\n",
    "with open(f) as (a, b):\n    pass\n",
    "global g\ng = 1\ndel a.b, c[1], d\n",
    "s = 'a' 'b' f'{c!r:>{w}}'\n",
    "x = 0x10 + 1e3 + 2j + 1_000\n",
]


@pytest.mark.parametrize("source", VALID_PYTHON)
def test_valid_python_always_lowers_and_verifies(ctx, source):
    assert ops(source) is not None


def test_syntax_error_names_file_line_and_column(ctx):
    with pytest.raises(FrontendError) as info:
        lower_source("x = 1\ny = (\n", "bad.py")
    e = info.value
    assert (e.filename, e.line) == ("bad.py", 2) or e.line == 3
    assert str(e).startswith("bad.py:")
    assert ": error: " in str(e)


def test_unlowered_constructs_are_opaque_with_unknown_effect(ctx):
    opaque = ops("from os import *\n", "host.opaque")
    assert [string_attr(o, "kind") for o in opaque] == ["ImportFrom"]
    assert string_attr(opaque[0], "effect") == "unknown"


def test_loops_inside_opaque_statements_stay_visible(ctx):
    loops = ops("try:\n    for x in xs:\n        x.item()\nexcept E:\n    pass\n", "host.for")
    assert len(loops) == 1


def test_module_op_records_name_and_file(ctx):
    module = lower_source("pass\n", "pkg/mod.py")
    mod = module.body.operations[0]
    assert ir.StringAttr(mod.attributes["sym_name"]).value == "mod"
    assert ir.StringAttr(mod.attributes["filename"]).value == "pkg/mod.py"


def test_self_attribute_assigned_once_carries_its_fact(ctx):
    src = ("import tensorflow as tf\nimport torch\n"
           "class Agent(torch.nn.Module):\n"
           "    def __init__(self):\n"
           "        super().__init__()\n"
           "        self.sess = tf.Session()\n"
           "        self.linear = torch.nn.Linear(4, 2)\n"
           "        self.other = torch.nn.Linear(4, 2)\n"
           "    def act(self, x):\n"
           "        self.sess.run(x)\n"
           "        self.other = None\n"
           "        return self.linear(x), self.other(x)\n")
    c = calls(src)
    assert "tensorflow.compat.v1.Session.run" in c  # `self.sess` is the session
    kinds = {string_attr(o, "attr"): string_attr(o, "harp.kind")
             for o in ops(src, "host.getattr")}
    assert kinds["linear"] == "module"
    assert kinds["other"] == ""  # assigned a module and None: nothing is assumed


def test_self_attribute_assigned_alike_on_every_branch_carries_the_shared_kind(ctx):
    src = ("import torch\n"
           "class GAN:\n"
           "    def __init__(self, gpu):\n"
           "        if gpu:\n"
           "            self.loss = torch.nn.BCELoss().cuda()\n"
           "            self.mixed = torch.nn.Linear(2, 2)\n"
           "        else:\n"
           "            self.loss = torch.nn.BCELoss()\n"
           "            self.mixed = 0\n"
           "    def step(self, x, y):\n"
           "        return self.loss(x, y), self.mixed\n")
    getattrs = [o for o in ops(src, "host.getattr") if string_attr(o, "attr") in ("loss", "mixed")]
    read = {string_attr(o, "attr"): o for o in getattrs}  # the last: the read in `step`
    assert string_attr(read["loss"], "harp.kind") == "module"
    assert "assigned in 2 places" in string_attr(read["loss"], "harp.kind_reason")
    assert string_attr(read["mixed"], "harp.kind") == ""


def test_attributes_assigned_once_counts_every_binding_statement(ctx):
    import libcst as cst

    from harp_ir.frontend.names import attribute_assignments, attributes_assigned_once
    src = ("class A:\n"
           "    def __init__(self, x):\n"
           "        self.a = 1\n"
           "        if x: self.b = 2\n"
           "        if x:\n            self.c = 1\n"
           "        elif x > 2:\n            self.d = 1\n"
           "        else:\n            self.e = 1\n"
           "        try:\n            self.f = 1\n"
           "        except E:\n            self.f = 2\n"
           "        finally:\n            self.g = 1\n"
           "        for self.h in []:\n            pass\n"
           "        with open(x) as self.i:\n            self.j += 1\n"
           "    def m(self):\n"
           "        self.a2, (self.b2, *self.c2) = 1, (2, 3)\n"
           "        self.e = 5\n"
           "    @staticmethod\n"
           "    def s(x):\n"
           "        x.z = 1\n")
    found = attributes_assigned_once(cst.parse_module(src).body[0])
    assert found == {"a", "a2", "b", "b2", "c", "c2", "d", "g", "i"}
    counted = attribute_assignments(cst.parse_module(src).body[0])
    assert counted["e"] == counted["f"] == 2 and "h" not in counted and "j" not in counted
    with_setattr = src.replace("self.a = 1", "setattr(self, name, 1)")
    assert attributes_assigned_once(cst.parse_module(with_setattr).body[0]) == frozenset()


LEGACY = ("import torch\n\n\ndef load(x, async=False):\n    return x.cuda(async=async)\n\n\n"
          "async def fetch(q):\n    await q.get()\n\n\n"
          "for x in range(3):\n    y = load(torch.ones(2), async=True)\n"
          "    print(y.sum().item())\n")


def test_python36_async_names_are_analysed_at_their_places(ctx):
    from harp_ir.frontend.source import legacy_names_renamed

    renamed = legacy_names_renamed(LEGACY)
    assert renamed is not None and len(renamed) == len(LEGACY)
    assert "async def fetch" in renamed and "await q.get()" in renamed  # keywords kept
    assert "async=" not in renamed.replace("async def", "")
    assert legacy_names_renamed("x = 1\n") is None
    assert legacy_names_renamed("def (:\n  async\n") is None  # not Python 3.6 either
    module = lower_source(LEGACY, "legacy.py")
    calls = {string_attr(op, "method"): span(op.location) for op in walk(module.operation)
             if op.name == "host.call" and string_attr(op, "method") in ("cuda", "item")}
    assert (calls["cuda"].line, calls["cuda"].col) == (5, 12)
    assert (calls["item"].line, calls["item"].col) == (14, 11)


PYTHON2 = ("import sys\nimport torch\n\n\ndef report(step, loss):\n"
           "    print 'step %d' % step, loss   # a Python 2 print statement\n"
           "    print >>sys.stderr, 'loss', (loss,\n                               step)\n"
           "    print\n\n\nmodel = torch.nn.Linear(2, 2)\nfor step in range(100):\n"
           "    try:\n        loss = model(torch.ones(2)).sum()\n"
           "    except (ValueError,\n            KeyError), e:\n"
           "        raise RuntimeError, 'bad batch'\n"
           "    loss.backward()\n    if step: print loss.item(),\n    report(step, loss)\n")


def test_python2_statements_are_read_the_python3_way_on_the_same_lines(ctx):
    from harp_ir.frontend.source import python2_statements_rewritten

    rewritten = python2_statements_rewritten(PYTHON2)
    assert rewritten is not None and rewritten.count("\n") == PYTHON2.count("\n")
    assert "    print('step %d' % step, loss)   # a Python 2 print statement\n" in rewritten
    assert "print(  sys.stderr, 'loss', (loss,\n" in rewritten and "step))\n" in rewritten
    assert "    print()\n" in rewritten and "if step: print(loss.item(),)\n" in rewritten
    assert "KeyError) as e:" in rewritten and "raise RuntimeError( 'bad batch')" in rewritten
    for other in ("x = 1\n", "print('x')\n", "print 'x'\nexec 'y'\n", "print `x`\n"):
        assert python2_statements_rewritten(other) is None  # valid, or more than prints
    module = lower_source(PYTHON2, "old.py")
    item = next(op for op in walk(module.operation)
                if op.name == "host.call" and string_attr(op, "method") == "item")
    assert (span(item.location).line, span(item.location).col) == (20, 20)


def test_other_python2_syntax_is_still_reported_as_python_words_it(ctx):
    with pytest.raises(FrontendError, match="Missing parentheses in call to 'print'"):
        lower_source("print 'x'\nprint `y`\n", "old.py")


def _analysed_never_rewritten(path, source, capsys, declined: str) -> None:
    """`harp analyze` reports HARP202 at line 6, column 9 of `source`; `harp refactor
    --apply --unsafe-fixes` declines it with `declined` and leaves the file as it was."""
    from harp_ir.cli import harp

    path.write_text(source)
    assert harp.main(["analyze", str(path)]) == 1  # hints found
    assert f"{path.name}:6:9: HARP202" in capsys.readouterr().out
    harp.main(["refactor", "--apply", "--unsafe-fixes", str(path)])
    out = capsys.readouterr()
    assert f"HARP202 not fixed: {declined}" in out.out + out.err
    assert path.read_text() == source


def test_python2_files_are_analysed_but_never_rewritten(ctx, tmp_path, capsys):
    source = ("import torch\n\nmodel = torch.nn.Linear(2, 2).cuda()\ntotal = 0.0\n"
              "for step in range(100):\n    x = torch.ones(2048, 1024).cuda()\n"
              "    loss = model(x).sum()\n    loss.backward()\n    total += loss.item()\n"
              "print 'total', total\n")
    _analysed_never_rewritten(tmp_path / "old.py", source, capsys, "the file is Python 2")


def test_python36_async_names_are_never_rewritten(ctx, tmp_path, capsys):
    from harp_ir.cli import harp

    source = ("import torch\n\nmodel = torch.nn.Linear(2, 2).cuda()\ntotal = 0.0\n"
              "for step in range(100):\n    x = torch.ones(2048, 1024).cuda(async=True)\n"
              "    loss = model(x).sum()\n    loss.backward()\n    total += loss.item()\n"
              "print(total)\n")
    path = tmp_path / "legacy.py"
    path.write_text(source)
    harp.main(["refactor", "--apply", "--unsafe-fixes", str(path)])
    out = capsys.readouterr()
    assert "HARP202 not fixed: the file uses `async` or `await` as a name" in out.out + out.err
    assert path.read_text() == source


MIXED_TABS = ("import torch\n\nmodel = torch.nn.Linear(2, 2).cuda()\ntotal = 0.0\n"
              "for step in range(100):\n    x = torch.ones(2048, 1024).cuda()\n"
              "    for k in range(2):\n\t    loss = model(x).sum()\n"
              "    loss.backward()\n    total += loss.item()\nprint(total)\n")


def test_indentation_mixing_tabs_python_reads_is_analysed_on_its_lines(ctx):
    """Python reads a block body indented `\\t    x` under a loop indented with 4 spaces
    (the tab reaches column 8); libcst's tokenizer refuses it. harp reads it as Python
    does."""
    import ast

    import libcst as cst

    from harp_ir.frontend.source import tabs_expanded

    ast.parse(MIXED_TABS)
    with pytest.raises(cst.ParserSyntaxError):
        cst.parse_module(MIXED_TABS)
    expanded = tabs_expanded(MIXED_TABS)
    assert expanded is not None and expanded.count("\n") == MIXED_TABS.count("\n")
    assert "\n            loss = model(x).sum()\n" in expanded
    assert tabs_expanded("x = 1\nif x:\n    y = '\\t'\n") is None  # no tab in indentation
    module = lower_source(MIXED_TABS, "mixed.py")
    backward = next(op for op in walk(module.operation)
                    if op.name == "host.call" and string_attr(op, "method") == "backward")
    assert span(backward.location).line == 9


def test_indentation_mixing_tabs_is_never_rewritten(ctx, tmp_path, capsys):
    _analysed_never_rewritten(tmp_path / "mixed.py", MIXED_TABS, capsys,
                              "the file's indentation mixes tabs and spaces")
