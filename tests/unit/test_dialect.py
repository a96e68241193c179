import pytest
from torch_mlir import ir

from harp_ir.analysis import span
from harp_ir.dialects import host


def test_every_op_is_in_the_irdl_text():
    text = host.irdl_text()
    for spec in host.OPS:
        assert f"irdl.operation @{spec.name} " in text


def test_irdl_export_leaves_out_terminators():
    text = host.irdl_text(include_terminators=False)
    assert "irdl.dialect @hostcf" not in text
    assert "irdl.dialect @host " in text


def test_terminators_have_the_trait(ctx):
    m = ir.Module.parse('"host.module"() ({ "hostcf.yield"() : () -> () }) '
                        '{sym_name = "m", filename = "m.py"} : () -> ()')
    yield_op = m.body.operations[0].regions[0].blocks[0].operations[0]
    assert yield_op.operation.has_trait(ir.IsTerminatorTrait)


def test_two_contexts_each_get_the_dialect():
    from harp_ir.context import make_context

    for _ in range(2):
        with make_context():
            ir.Module.parse('%0 = "host.load"() {name = "x"} : () -> !host.obj')


@pytest.mark.parametrize("text,error", [
    ('%f = "host.load"() {name = ""} : () -> !host.obj', "slot name must not be empty"),
    ('%f = "host.load"() {name = "x", scope = "galaxy"} : () -> !host.obj', "unknown scope"),
    ('%a = "host.load"() {name = "a"} : () -> !host.obj\n'
     '%c = "host.compare"(%a) {ops = []} : (!host.obj) -> !host.obj', "comparison ops"),
    ('%a = "host.load"() {name = "a"} : () -> !host.obj\n'
     '%d = "host.dict"(%a) : (!host.obj) -> !host.obj', "key/value operand pairs"),
    ('%o = "host.opaque"() ({}) {kind = ""} : () -> !host.obj', "must say what it stands for"),
    ('%f = "host.call"() {kwnames = []} : () -> !host.obj', "needs a callee"),
    ('%f = "host.load"() {name = ""} : () -> !host.obj', "slot name must not be empty"),
    ('%f = "host.load"() {name = 3} : () -> !host.obj',  # types are checked first
     "attribute 'name' must be a string attribute"),
])
def test_verifiers_reject_what_irdl_cannot_express(ctx, text, error):
    with pytest.raises(ir.MLIRError) as info:
        ir.Module.parse(text)
    assert error in str(info.value) or any(error in d.message
                                           for d in info.value.error_diagnostics)


def test_verifier_accepts_a_well_formed_loop(ctx):
    m = ir.Module.parse('''
      %r = "host.load"() {name = "r"} : () -> !host.obj
      "host.for"(%r) ({
      ^bb0(%i: !host.obj):
        "hostcf.continue"() : () -> ()
      }, {
        "hostcf.yield"() : () -> ()
      }) {target = "i"} : (!host.obj) -> ()''')
    assert m.operation.verify()


def test_for_needs_one_block_argument(ctx):
    with pytest.raises(ir.MLIRError, match="1 block argument"):
        ir.Module.parse('''
          %r = "host.load"() {name = "r"} : () -> !host.obj
          "host.for"(%r) ({
            "hostcf.yield"() : () -> ()
          }, {
            "hostcf.yield"() : () -> ()
          }) {target = "i"} : (!host.obj) -> ()''')


def test_markdown_documents_every_op_and_attribute():
    doc = host.markdown()
    for spec in host.OPS:
        assert f"### `{spec.full_name}`" in doc
        for attr in spec.attrs:
            assert f"| `{attr.name}` |" in doc


@pytest.mark.parametrize("name,utf8", [
    ("train.py", True), ("caf\u00e9/\u8bad\u7ec3.py", True), ("a\\FF.py", True),
    ('say "hi".py', True)])
def test_a_location_is_utf8_whatever_its_file_is_named(ctx, name, utf8):
    """Printed, a name is escaped (`\\C3\\A9`, `\\\\`): unescaped it is the name again."""
    location = ir.Location.file(name, 1, 1)
    assert host.location_is_utf8(location) is utf8
    assert span(location).file == name


def test_a_location_that_is_not_utf8_is_seen_without_reading_it(ctx):
    location = ir.Module.parse('module {} loc("\\FF\\FE.py":1:2)').operation.location
    assert not host.location_is_utf8(location)
    assert span(location) is None  # reading its file name would abort the process
