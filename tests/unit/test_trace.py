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
    ('[[entry]]\ntarget = "cnn.py"\nframework = "torch"\n', "must be \"file.py:name\""),
    ('[[entry]]\ntarget = "cnn.py:Net"\nframework = "jax"\n', "`framework` must be"),
    ('[[entry]]\ntarget = "cnn.py:Net"\nframework = "torch"\ninputs = [1]\n', "`shape`"),
    ('[[entry]]\ntarget = "cnn.py:Net"\nframework = "torch"\nbatch = 2\n', "unknown keys"),
    ("", "no [[entry]]"),
])
def test_a_bad_spec_is_a_clear_error(tmp_path, text, message):
    spec = tmp_path / "trace.toml"
    spec.write_text(text)
    with pytest.raises(TraceError, match="trace.toml") as e:
        load_spec(spec)
    assert message in str(e.value)


def test_the_spec_can_live_in_pyproject(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[tool.harp.trace]\nentry = [{target = "m.py:f", framework = "tf"}]\n')
    [entry] = load_spec(tmp_path / "pyproject.toml")
    assert entry.file == str(tmp_path / "m.py") and entry.symbol == "f"
