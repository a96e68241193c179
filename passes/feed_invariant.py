"""--harp-feed-invariant (HARP203): `feed_dict` values that do not change across
iterations.

Finds: `Session.run(..., feed_dict={ph: value})` inside a loop where a fed value is
loop-invariant: the same host data is copied into the graph every step. Invariant data
belongs in the graph (a constant or variable), streaming data in `tf.data`.

A Python number fed each step (`keep_prob: 0.5`) or a literal written in the program
(`x_data = [[0, 1], ...]`) is not reported: it costs nothing. Other data reaches the default
report only when it comes from a data set loader (`read_data_sets`, `load_data`,
`next_batch`, `np.load`): a tutorial's full-batch regression over a small CSV file copies
microseconds' worth each step. An
epoch loop that feeds the test set once per epoch, or a guarded feed, is not a per-step
cost (high risk).

Assumes: the fed value is not changed through an alias in the loop.
"""

from __future__ import annotations

from harp_ir import callgraph
from harp_ir.analysis import (
    NOT_CONSTANT,
    SESSION_RUN,
    Assumption,
    call_arguments,
    constant_value,
    definition,
    describe_loop,
    enclosing_loop,
    enclosing_scope,
    few_iterations,
    invariant_in,
    producer,
    record_hint,
    runs_inner_loop,
    string_attr,
    value_name,
    walk,
)
from harp_ir.rules import HintSpec, Rule

HINT = "HARP203"


def _feed(op):
    for i, (k, v) in enumerate(call_arguments(op)):
        if k == "feed_dict" or (k == "" and i == 1):
            return v
    return None


def _literal(value, scope) -> bool:
    """Whether the fed data is a literal written in the program (`x_data = [[0, 1], ...]`,
    perhaps through `np.array`, or `keep_prob = 0.75`): a handful of numbers, copied in
    microseconds."""
    made = definition(value, scope)
    if made is not None and made.name == "host.call" and \
            string_attr(made, "qualname") in ("numpy.array", "numpy.asarray") and \
            len(made.operands) > 1:
        made = definition(made.operands[1], scope)
    return made is not None and made.name in ("host.list", "host.tuple", "host.constant")


#: calls that load a whole data set (`input_data.read_data_sets`, `mnist.load_data()`,
#: `mnist.train.next_batch(5000)`, `np.load`): data worth keeping in the graph
_DATASET_LOADERS = ("read_data_sets", "load_data", "next_batch", "load")


def _dataset(value, scope, depth: int = 0) -> bool:
    """Whether the fed data comes from a data set loader (through attributes, slices and
    tuple unpacking), as opposed to a few numbers computed or read from a small file."""
    made = definition(value, scope)
    while made is not None and made.name in ("host.getattr", "host.getitem", "host.unpack") \
            and depth < 8:
        depth += 1
        inner = made.operands[0]
        made = definition(inner, scope) if producer(inner) is not None else None
    if made is None or made.name != "host.call":
        return False
    name = string_attr(made, "method") or string_attr(made, "qualname").rsplit(".", 1)[-1]
    return name in _DATASET_LOADERS


def run(module, pass_=None) -> None:
    for op in walk(module):
        if op.name != "host.call" or string_attr(op, "qualname") != SESSION_RUN:
            continue
        loop = enclosing_loop(op)
        feed = _feed(op)
        if loop is None or feed is None or not hasattr(feed.owner, "operation"):
            continue
        display = feed.owner.operation
        if display.name != "host.dict":
            continue
        entries = list(display.operands)
        fixed = [(k, v) for k, v in zip(entries[::2], entries[1::2], strict=True)
                 if invariant_in(v, loop) and constant_value(v) is NOT_CONSTANT
                 and not _literal(v, enclosing_scope(op))]
        if not fixed:
            continue  # a Python number fed each step (`keep_prob: 0.5`) costs nothing
        names = ", ".join(f"`{value_name(v) or 'a value'}`" for _, v in fixed)
        message = (f"{names} fed through `feed_dict` on every iteration of "
                   f"{describe_loop(loop)} does not change in the loop: the same data is "
                   f"copied into the graph each step; make it a constant or variable (or "
                   f"stream changing data with `tf.data`)")
        assumptions = [
            Assumption("no-alias", names, "medium", "speculated",
                       "the fed value is not changed through another name in the loop"),
        ]
        assumptions += callgraph.run_rate(op, loop)
        if not any(_dataset(v, enclosing_scope(op)) for _, v in fixed):
            assumptions.append(Assumption(
                "loading-cost", names, "high", "speculated",
                "the fed data does not come from a data set loader: a few numbers computed "
                "or read from a small file cost microseconds to copy"))
        if runs_inner_loop(loop, op) or few_iterations(loop):
            assumptions.append(Assumption(
                "hot-loop", describe_loop(loop), "high", "speculated",
                "the loop runs an inner loop (once per epoch, as an evaluation on the test "
                "set) or a handful of times"))
        record_hint(op, HINT, message, assumptions)


RULE = Rule(
    flag="harp-feed-invariant",
    summary="Find loop-invariant feed_dict values (HARP203)",
    run=run,
    hint=HintSpec(
        id="HARP203",
        name="feed-invariant",
        finds="`feed_dict` values that do not change across iterations",
        why="the same arrays are copied into the session on every `run`",
        refactoring="a constant or variable in the graph, or `tf.data` for streaming data",
        before="for step in range(n):\n"
               "    sess.run(train, {x_ph: X, y_ph: Y})\n",
        after="X_c, Y_c = tf.constant(X), tf.constant(Y)  # and build the graph on them\n",
        assumptions=("no-alias", "hot-loop", "every-iteration", "loading-cost"),
    ),
)
