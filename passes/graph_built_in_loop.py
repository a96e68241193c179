"""--harp-graph-built-in-loop (HARP101): TF1 graph construction inside a loop that also
runs the graph.

Finds: calls whose effect is `graph_build` (`tensorflow.compat.v1` op constructors,
`tf.Variable`, optimizers and `minimize`, savers, initializers, `tf.gradients`) inside a
loop whose body also calls `Session.run`. Each iteration adds new nodes to the default
graph: the graph, the memory it holds and the time of every `run` grow with the loop.

Assumes: the names resolve to TensorFlow (not monkey-patched) and the ops are not built
under a fresh `tf.Graph()` per iteration.
"""

from __future__ import annotations

from harp_ir.analysis import (
    SESSION_RUN,
    Assumption,
    describe_loop,
    loops_around,
    record_hint,
    string_attr,
    walk,
)

HINT = "HARP101"


def _runs_graph(loop) -> bool:
    return any(op.name == "host.call" and string_attr(op, "qualname") == SESSION_RUN
               for op in walk(loop))


def run(module, pass_=None) -> None:
    for op in walk(module):
        if op.name != "host.call" or string_attr(op, "effect") != "graph_build":
            continue
        loop = next((lp for lp in loops_around(op) if _runs_graph(lp)), None)
        if loop is None:
            continue
        what = string_attr(op, "qualname").replace("tensorflow.compat.v1", "tf")
        message = (f"`{what}` adds nodes to the graph on every iteration of "
                   f"{describe_loop(loop)}, which also runs the graph: the graph and every "
                   f"`run` grow with the loop; build it once before the loop and feed the "
                   f"changing values through placeholders")
        record_hint(op, HINT, message, [
            Assumption("library", string_attr(op, "qualname"), "low", "proved",
                       "the name resolves to tensorflow.compat.v1"),
            Assumption("same-graph", describe_loop(loop), "medium", "speculated",
                       "the loop does not build into a fresh tf.Graph each iteration"),
        ])
