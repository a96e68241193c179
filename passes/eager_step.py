"""--harp-eager-step (HARP103): a TF2 training step run eagerly in a loop.

Finds: a `with tf.GradientTape()` block inside a loop, or in a function of the file that
a loop calls (reported at the tape, naming the function and the loop), in code that no
`tf.function` compiles (neither the enclosing function nor its caller's decorator), whose
body makes no host syncs (so it is graph-compatible). Eager execution dispatches each op from
Python; a `tf.function` runs the whole step as one graph.

Assumes: the step's body is traceable (no Python side effects that must run every
step), which is speculated from the absence of syncs and I/O in the tape block.
"""

from __future__ import annotations

from torch_mlir import ir

from harp_ir.analysis import (
    Assumption,
    describe_loop,
    in_compiled_function,
    loop_of,
    loop_runs,
    record_hint,
    string_attr,
    walk,
)

HINT = "HARP103"
TAPE = "tensorflow.GradientTape"


def run(module, pass_=None) -> None:
    for op in walk(module):
        if op.name != "host.with" or "harp.contexts" not in op.attributes:
            continue
        if TAPE not in [ir.StringAttr(c).value for c in
                        ir.ArrayAttr(op.attributes["harp.contexts"])]:
            continue
        if in_compiled_function(op, ("tensorflow.function",)):
            continue
        where = loop_of(op)  # a step in a helper: facts across the call
        if where is None:
            continue
        loop, func, _ = where
        if any(string_attr(o, "effect") in ("sync", "io") for o in walk(op)):
            continue  # not graph-compatible as it stands
        if func is not None and any(
                string_attr(o, "effect") in ("sync", "io") or (
                    string_attr(o, "effect") == "random" and
                    string_attr(o, "qualname").startswith(("numpy.", "random.")))
                for o in walk(func)):
            continue  # compiled whole, it would freeze numpy's random draws at trace time
        if func is None:
            message = (f"the training step under `tf.GradientTape()` runs eagerly on every "
                       f"iteration of {describe_loop(loop)}; move it into a function "
                       f"decorated with `@tf.function` so each step runs as one graph")
        else:
            name = string_attr(func, "sym_name")
            message = (f"the training step under `tf.GradientTape()` in `{name}` runs eagerly: "
                       f"`{name}` is called on every iteration of {describe_loop(loop)}; "
                       f"decorate `{name}` with `@tf.function` so each step runs as one graph")
        record_hint(op, HINT, message, [
            Assumption("traceable", describe_loop(loop), "medium", "speculated",
                       "the step has no Python side effects that must run eagerly"),
            loop_runs(loop),
        ])
