"""--harp-rebuilt-in-loop (HARP503): an optimizer or a model constructed on every step of
a training loop.

Finds: a construction of an optimizer (`torch.optim.*`, `tf.keras.optimizers.*`) or of a
module with parameters (a layer, `Sequential`, a Keras `Model`, a module class of the
file) on every iteration of a loop that runs a model over batches, not an outer loop
that trains the new object with an inner loop (cross-validation, sweeps). Each step then
pays the construction (parameter allocation and initialisation, or a new optimizer's
state) and starts over from it: an optimizer forgets its moments and step count, a model
its weights.

Not: a module class of the program that holds no parameters (a Gram-matrix loss whose
`forward` computes everything): nothing to forget, and cheap to build. Nor an optimizer
over objects the loop itself makes anew (`z = x.clone().requires_grad_()`,
`self.image = preprocess(img)` and then `SGD([self.image])`): its parameters are new each
iteration, so it has to be built each iteration (an image optimised step by step, an
adversarial example per batch).

Assumes: the loop runs many times; the object is not meant to be new each step (a fresh
model per batch is almost always a bug, but moving the construction changes what the
program computes, so there is no automatic fix).
"""

from __future__ import annotations

from harp_ir import callgraph
from harp_ir.analysis import (
    Assumption,
    call_arguments,
    describe_loop,
    does_model_work,
    enclosing_loop,
    few_iterations,
    frequency,
    instance_class,
    loop_runs,
    producer,
    record_hint,
    runs_inner_loop,
    string_attr,
    value_name,
    walk,
)
from harp_ir.autograd import parameterless_class
from harp_ir.rules import HintSpec, Rule

HINT = "HARP503"
#: modules without parameters: cheap to build, nothing to forget
_STATELESS = ("Loss", "ReLU", "Sigmoid", "Tanh", "Softmax", "LogSoftmax", "Dropout",
              "Flatten", "Identity", "MaxPool", "AvgPool", "Upsample", "GELU", "LeakyReLU")


def _what(call) -> str | None:
    """"optimizer" or "model" when `call` builds one with state, else None."""
    kind = string_attr(call, "harp.kind")
    qualname = string_attr(call, "qualname")
    if kind == "optimizer":
        return "optimizer"
    if kind != "module" or any(s in qualname.rsplit(".", 1)[-1] for s in _STATELESS):
        return None
    callee = producer(call.operands[0])
    class_of_file = callee is not None and string_attr(callee, "harp.kind") == "class"
    if class_of_file and parameterless_class(instance_class(call.result, call)):
        return None  # a module class of the file that holds no parameters (a Gram loss)
    if qualname.startswith(("torch.nn.", "tensorflow.keras.", "keras.")) or class_of_file:
        return "model"
    return None


def _paths(value, depth: int = 0) -> set[str]:
    """The names and attribute paths (`self.image`) whose objects flow into `value`."""
    op = producer(value)
    if op is None or depth > 8:
        return set()
    if op.name == "host.load":
        return {string_attr(op, "name")}
    if op.name == "host.getattr":
        return {f"{p}.{string_attr(op, 'attr')}" for p in _paths(op.operands[0], depth + 1)}
    return set().union(*(_paths(v, depth + 1) for v in op.operands))


def _rebound(loop) -> set[str]:
    """The names and attribute paths the loop binds anew (`z = ...`, `self.image = ...`)."""
    bound = set()
    for op in walk(loop):
        if op.name == "host.store":
            bound.add(string_attr(op, "name"))
        elif op.name == "host.setattr":
            bound |= {f"{p}.{string_attr(op, 'attr')}" for p in _paths(op.operands[0])}
    return bound


def _fresh_parameters(call, loop) -> bool:
    """Whether an optimizer's parameters are objects the loop makes anew each iteration."""
    arguments = call_arguments(call)
    params = [v for k, v in arguments if k == "params"] or \
        [v for k, v in arguments[:1] if k == ""]
    return bool(params) and bool(_paths(params[0]) & _rebound(loop))


def run(module, pass_=None) -> None:
    for op in walk(module):
        if op.name != "host.call" or string_attr(op, "effect") not in ("construct", "unknown"):
            continue
        what = _what(op)
        loop = enclosing_loop(op) if what else None
        if loop is None or not does_model_work(loop, strict=True) or few_iterations(loop) \
                or runs_inner_loop(loop, op):
            continue  # an outer loop that trains what it builds: a sweep, not a bug
        how_often = frequency(op, loop)
        if how_often.kind != "always":
            continue  # rebuilt only sometimes (a schedule, a restart): on purpose
        if what == "optimizer" and _fresh_parameters(op, loop):
            continue  # it optimises what this iteration made: it must be new each time
        name = string_attr(op, "qualname") or value_name(op.operands[0]) or "the constructor"
        forgets = "its moments and step count" if what == "optimizer" else "its weights"
        message = (f"a new {what} (`{name}`) is constructed {how_often.phrase(loop)}: each "
                   f"step pays the construction and starts from a fresh {what}, which "
                   f"forgets {forgets}; construct it once before the loop")
        assumptions = [
            loop_runs(loop),
            Assumption("hot-loop", describe_loop(loop), "medium", "speculated",
                       "the loop runs a training step per iteration, not a whole training"),
        ]
        if not callgraph.training_work(loop) and \
                callgraph.per_step(loop, callgraph.training_work) is None:
            assumptions.append(Assumption(
                "hot-loop", describe_loop(loop), "high", "speculated",
                "no training loop runs it, in this file or through calls: it builds (a "
                "model's layers one by one, a set-up), not a step"))
        record_hint(op, HINT, message, assumptions)


RULE = Rule(
    flag="harp-rebuilt-in-loop",
    summary="Find optimizers and models constructed every step (HARP503)",
    run=run,
    hint=HintSpec(
        id="HARP503",
        name="rebuilt-in-loop",
        finds="an optimizer or a model with parameters constructed on every step of a training "
              "loop",
        why="the construction repeats on every step and the object starts over: an optimizer "
            "forgets its moments, a model its weights",
        refactoring="construct it once before the loop",
        before="for x, y in loader:\n"
               "    opt = torch.optim.Adam(model.parameters())\n"
               "    loss_fn(model(x), y).backward()\n"
               "    opt.step()\n",
        after="opt = torch.optim.Adam(model.parameters())\n"
              "for x, y in loader:\n"
              "    opt.zero_grad()\n"
              "    loss_fn(model(x), y).backward()\n"
              "    opt.step()\n",
        assumptions=("loop-runs", "hot-loop", "every-iteration"),
    ),
)
