"""Traced graphs: from a host call in a loop to the graph it runs; spec errors."""

from pathlib import Path

import pytest
from torch_mlir import ir

from harp_ir.analysis import enclosing_loop, walk
from harp_ir.frontend.lower import lower_file
from harp_ir.pipeline import build
from harp_ir.trace import TraceError, add_traces, graph_of, load_spec

TRACE = Path(__file__).resolve().parents[1] / "lit" / "Inputs" / "trace"


def test_a_pass_walks_from_the_call_in_the_loop_to_the_traced_graph(ctx):
    module = lower_file(TRACE / "cnn.py")
    assert add_traces(module, load_spec(TRACE / "cnn_trace.toml")) == []
    build(["harp-graph-facts"]).run(module.operation)
    calls = [op for op in walk(module.operation)
             if op.name == "host.call" and "harp.graph" in op.attributes]
    assert len(calls) == 1 and enclosing_loop(calls[0]) is not None  # `model(batch)`
    graph = graph_of(calls[0])
    assert graph is not None and graph.name == "func.func"
    ops = [op for op in walk(graph) if not op.name.startswith(
        ("torch.constant.", "torch.prim.ListConstruct", "func.return"))]
    count = ir.IntegerAttr(graph.attributes["harp.op_count"]).value
    assert count == len(ops) and any(op.name == "torch.aten.convolution" for op in ops)
    assert ir.IntegerAttr(calls[0].attributes["harp.graph_op_count"]).value == count
    # conv: 2 * (2*4*6*6 outputs) * (1*3*3); fc: 2 * (2*10) * 144; plus elementwise ops
    assert ir.IntegerAttr(calls[0].attributes["harp.graph_flops"]).value >= 5184 + 5760
    assert module.operation.verify()


@pytest.mark.parametrize("text, message", [
    ('[[entry]]\ntarget = "cnn.py"\nframework = "torch"\n',
     "`entry[1].target`: String should match pattern"),
    ('[[entry]]\ntarget = "cnn.py:Net"\nframework = "jax"\n',
     "`entry[1].framework`: Input should be 'torch' or 'tf'"),
    ('[[entry]]\ntarget = "cnn.py:Net"\nframework = "torch"\ninputs = [1]\n',
     "`entry[1].inputs[1]`: Input should be a valid dictionary"),
    ('[[entry]]\ntarget = "cnn.py:Net"\nframework = "torch"\nbatch = 2\n',
     "`entry[1].batch`: Extra inputs are not permitted"),
    ("", "no [[entry]]"),
    # wrong types are errors naming the key, not tracebacks
    ('[[entry]]\ntarget = "m.py:f"\nframework = "tf"\n[[entry]]\ntarget = 1\n',
     "`entry[2].target`: Input should be a valid string; `entry[2].framework`: Field required"),
    ('entry = 1\n', "`entry`: Input should be a valid list"),
    ('[[entry]]\ntarget = "m.py:f"\nframework = "tf"\ntimeout = "5"\n',
     "`entry[1].timeout`: Input should be a valid number"),
    ('[[entry]]\ntarget = "m.py:f"\nframework = "tf"\ntimeout = -1\n',
     "`entry[1].timeout`: Input should be greater than 0"),
    ('[[entry]]\ntarget = "m.py:f"\nframework = "tf"\ninputs = [{shape = [2, "x"]}]\n',
     "`entry[1].inputs[1].shape[2]`: Input should be a valid integer"),
    ('[[entry]]\ntarget = "m.py:f"\nframework = "tf"\n'
     'inputs = [{shape = [2], dtype = "float"}]\n', "`entry[1].inputs[1].dtype`"),
    ('[[entry]]\ntarget = "m.py:f"\nframework = "tf"\nargs = {a = 1}\n',
     "`entry[1].args`: Input should be a valid list"),
    ('entries = []\n', "`entries`: Extra inputs are not permitted"),
    (b'\xff\xfe'.decode('latin-1'), "cannot read the trace spec"),
])
def test_a_bad_spec_is_a_clear_error(tmp_path, text, message):
    spec = tmp_path / "trace.toml"
    spec.write_bytes(text.encode("latin-1") if "\xff" in text else text.encode())
    with pytest.raises(TraceError, match="trace.toml") as e:
        load_spec(spec)
    assert message in str(e.value)


def test_the_spec_can_live_in_pyproject(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[tool.harp.trace]\nentry = [{target = "m.py:f", framework = "tf"}]\n')
    [entry] = load_spec(tmp_path / "pyproject.toml")
    assert entry.file == str(tmp_path / "m.py") and entry.symbol == "f"
