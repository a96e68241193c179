"""--harp-tensor-from-tensors (HARP206): a tensor built from a list of tensors, element by
element, in a loop.

Finds: `torch.tensor([a, b, ...])` (or `torch.Tensor`, `torch.FloatTensor`, ...,
`numpy.array`) of a list display whose elements are torch tensors, or `tf.constant` /
`tf.convert_to_tensor` / `numpy.array` of eager TensorFlow tensors, on every iteration of
a loop that runs a model. The constructor reads each element as a Python number: one
copy to the host, and on an accelerator one sync, per element, and the result is built on
the CPU, cut off from autograd. `torch.stack([a, b])` / `tf.stack([a, b])` makes one
tensor where the elements are, with one kernel.

Assumes: the loop runs many times (not an outer, once-per-epoch loop) and the statement
runs on every iteration; the benefit of avoiding the syncs needs an accelerator; the
elements are tensors (proved or speculated by the frontend). No automatic fix: `stack`
keeps the elements' device, dtype and autograd history where the constructor makes a
detached CPU tensor of the default dtype, so the rewrite depends on what the program then
does with the result.
"""

from __future__ import annotations

from harp_ir.analysis import (
    Assumption,
    accelerator,
    describe_loop,
    does_model_work,
    enclosing_loop,
    few_iterations,
    frequency,
    loop_runs,
    producer,
    record_hint,
    runs_inner_loop,
    string_attr,
    value_name,
    walk,
)
from harp_ir.rules import HintSpec, Rule

HINT = "HARP206"
#: constructors that read their argument element by element -> the frameworks whose
#: tensors they read that way (TF1 graph tensors are symbolic: not these)
_CONSTRUCTORS = {
    **dict.fromkeys(("torch.tensor", "torch.Tensor", "torch.FloatTensor", "torch.LongTensor",
                     "torch.DoubleTensor", "torch.IntTensor", "torch.as_tensor"), ("torch",)),
    **dict.fromkeys(("tensorflow.constant", "tensorflow.convert_to_tensor"), ("tf",)),
    **dict.fromkeys(("numpy.array", "numpy.asarray"), ("torch", "tf")),
}
_STACK = {"torch": "torch.stack", "tf": "tf.stack"}


def _tensor_elements(call) -> tuple[list, str]:
    """The tensor elements of the list or tuple display `call` gets as its first argument,
    all of one framework the constructor reads element by element, and that framework."""
    display = producer(call.operands[1]) if len(call.operands) > 1 else None
    if display is None or display.name not in ("host.list", "host.tuple"):
        return [], ""
    tensors = [v for v in display.operands if producer(v) is not None and
               string_attr(producer(v), "harp.kind") == "tensor"]
    frameworks = {string_attr(producer(v), "harp.framework") for v in tensors}
    if any(string_attr(producer(v), "qualname").startswith("tensorflow.compat.v1")
           for v in tensors):
        return [], ""  # TF1 graph tensors are symbolic: nothing to read
    if len(frameworks) != 1 or next(iter(frameworks)) not in \
            _CONSTRUCTORS[string_attr(call, "qualname")]:
        return [], ""
    return tensors, next(iter(frameworks))


def run(module, pass_=None) -> None:
    for op in walk(module):
        if op.name != "host.call" or string_attr(op, "qualname") not in _CONSTRUCTORS:
            continue
        elements, framework = _tensor_elements(op)
        loop = enclosing_loop(op) if elements else None
        if loop is None or not does_model_work(loop) or few_iterations(loop) or \
                runs_inner_loop(loop, op) or frequency(op, loop).kind != "always":
            continue  # cold: a handful of times, once per epoch, or at a log interval
        names = ", ".join(f"`{value_name(v) or 'a tensor'}`" for v in elements[:3])
        constructor = string_attr(op, "qualname")
        message = (f"`{constructor}` of a list of tensors ({names}) reads each element as "
                   f"a Python number on every iteration of {describe_loop(loop)}: a copy to "
                   f"the host and a sync per element, and a new CPU tensor; use "
                   f"`{_STACK[framework]}([...])` (one kernel, on the elements' device)")
        status = "proved" if all(string_attr(producer(v), "harp.kind_status") == "proved"
                                 for v in elements) else "speculated"
        record_hint(op, HINT, message, [
            Assumption("tensor", names, "low" if status == "proved" else "medium", status,
                       f"the frontend's facts say the elements are {framework} tensors"),
            loop_runs(loop),
            Assumption("hot-loop", describe_loop(loop), "medium", "speculated",
                       "the loop runs a step per iteration, not a whole epoch"),
            accelerator(op),
        ])


RULE = Rule(
    flag="harp-tensor-from-tensors",
    summary="Find tensors built element by element from lists of tensors (HARP206)",
    run=run,
    hint=HintSpec(
        id="HARP206",
        name="tensor-from-tensors",
        finds="`torch.tensor([a, b, ...])` / `tf.constant([...])` / `np.array([...])` of "
              "tensors on every step of a loop that runs a model",
        why="the constructor reads each element as a Python number: a copy and, on an "
            "accelerator, a sync per element, then a new CPU tensor",
        refactoring="`torch.stack([a, b, ...])` / `tf.stack([...])` (keeps the device, "
                    "dtype and autograd history: add `.detach()` or `.cpu()` where the "
                    "program needs them)",
        before="for x, y in loader:\n"
               "    losses = model.losses(x, y)\n"
               "    log = torch.tensor([losses[0], losses[1]])\n",
        after="for x, y in loader:\n"
              "    losses = model.losses(x, y)\n"
              "    log = torch.stack([losses[0], losses[1]]).detach()\n",
        assumptions=("tensor", "loop-runs", "hot-loop", "accelerator"),
    ),
)
