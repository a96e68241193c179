"""--harp-concat-in-loop (HARP402): a tensor or array grown by concatenation in a loop.

Finds: `x = torch.cat([x, y])` (also `torch.stack`, `tf.concat`, `tf.stack`,
`np.concatenate`, `np.vstack`, `np.hstack`, `np.append`) inside a loop, where the result
is stored back into a slot that is also an input: every iteration copies everything
accumulated so far, so the loop is quadratic in its length.

Not reported when the loop reads the partial result elsewhere: then every iteration needs
it whole (autoregressive generation, dense blocks), and nothing can be deferred.

Assumes: the loop runs more than once.
"""

from __future__ import annotations

from harp_ir.analysis import (
    Assumption,
    describe_loop,
    enclosing_loop,
    loop_runs,
    record_hint,
    string_attr,
    walk,
)

HINT = "HARP402"
CONCATENATIONS = frozenset({
    "torch.cat", "torch.concat", "torch.stack", "torch.hstack", "torch.vstack",
    "tensorflow.concat", "tensorflow.stack", "numpy.concatenate", "numpy.vstack",
    "numpy.hstack", "numpy.stack", "numpy.append",
})


def _loaded_names(value) -> set[str]:
    """Names loaded directly as the elements of a list/tuple display (or the value)."""
    owner = value.owner
    if not hasattr(owner, "operation"):
        return set()
    op = owner.operation
    if op.name in ("host.list", "host.tuple"):
        return {n for v in op.operands for n in _loaded_names(v)}
    if op.name == "host.load":
        return {string_attr(op, "name")}
    return set()


def _read_elsewhere(name: str, concat, loop) -> bool:
    """Whether the loop reads `name` other than as an input of the concatenation: then each
    iteration needs the whole partial result (autoregressive generation feeds it to the
    model, a dense block to the next layer), and deferring the concatenation is wrong."""
    own = list(concat.operands)[1:]
    for o in walk(loop):
        if o.name != "host.load" or string_attr(o, "name") != name:
            continue
        if not all(use.owner.operation == concat or
                   (use.owner.operation.name in ("host.list", "host.tuple") and
                    any(use.owner.operation.result == v for v in own))
                   for use in o.result.uses):
            return True
    return False


def run(module, pass_=None) -> None:
    for op in walk(module):
        if op.name != "host.call" or string_attr(op, "qualname") not in CONCATENATIONS:
            continue
        loop = enclosing_loop(op)
        if loop is None or len(op.operands) < 2:
            continue
        inputs = {n for v in list(op.operands)[1:] for n in _loaded_names(v)}
        stored = {string_attr(use.owner.operation, "name") for use in op.result.uses
                  if use.owner.operation.name == "host.store"}
        grown = sorted(name for name in inputs & stored if not _read_elsewhere(name, op, loop))
        if not grown:
            continue
        name, what = grown[0], string_attr(op, "qualname")
        message = (f"`{name}` grows by `{what}` on every iteration of {describe_loop(loop)}, "
                   f"copying everything accumulated so far (quadratic in the loop length); "
                   f"append the pieces to a list and concatenate once after the loop")
        record_hint(op, HINT, message, [
            loop_runs(loop),
            Assumption("no-partial-use", name, "low", "proved",
                       "the loop reads the partial result only to concatenate to it"),
        ])
