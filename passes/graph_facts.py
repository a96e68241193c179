"""--harp-graph-facts: what each host call that runs a traced graph costs.

Finds: host calls linked to a traced graph (`harp.graph = @Net`, set by `harp import
--trace`) and follows the symbol to the graph's `func.func`.

Records on the call: `harp.graph_op_count` (the graph's ops, constants left out),
`harp.graph_flops` (2*M*N*K per matrix product, 2*output*kernel per convolution, one per
output element otherwise, for static shapes), `harp.graph_pure` (no variable writes or
side-effecting ops), and `harp.graph_in_loop` when a host loop runs the call: the facts an
analysis needs to rank a call in a hot loop by what it really runs.

Assumes: the traced graph is the one the call runs (same entry point; shapes of the
example inputs).
"""

from __future__ import annotations

from torch_mlir import ir

from harp_ir.analysis import enclosing_loop, walk
from harp_ir.rules import Rule
from harp_ir.trace import annotate_graph, graph_of


def run(module, pass_=None) -> None:
    for op in walk(module):
        if op.name != "host.call" or "harp.graph" not in op.attributes:
            continue
        graph = graph_of(op)
        if graph is None:
            continue
        if "harp.op_count" not in graph.attributes:
            annotate_graph(graph)
        for fact in ("op_count", "flops", "pure"):
            op.attributes[f"harp.graph_{fact}"] = graph.attributes[f"harp.{fact}"]
        if enclosing_loop(op) is not None:
            op.attributes["harp.graph_in_loop"] = ir.UnitAttr.get()


RULE = Rule(
    flag="harp-graph-facts",
    summary="Record the op count, FLOPs and purity of traced graphs on their calls",
    run=run,
)
