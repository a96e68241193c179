"""--harp-per-sample-call (HARP403): a model called on one example at a time in a loop.

Finds: a call of a module (kind `module`) or a compiled graph function inside a loop whose
input is one example: `x[i]` / `x[i:i + 1]` with `i` the int counter of a loop over
`range` or `enumerate` (a `BatchSampler` hands out lists of indices: `x[index]` is a batch),
or the loop variable itself when the loop iterates over a tensor; or one step along another axis,
`x[:, t]` (a sub-model called once per time step, `[emb(x[:, t]) for t in range(T)]`).
When the calls are independent (no call's input comes from an earlier call, and its other
arguments do not change in the loop: `h = cell(x[:, t], h)` carries state and is not
reported), one batched call does the same work at once. A loop that trains (backward or an
optimizer step per iteration) is not reported: each call sees the weights the previous update
left; nor one that takes each call's own gradient (`torch.autograd.grad`, MAML's per-task
fast weights), which one batched call cannot give.

A Keras model's `predict(x)` with `x` the element of a minibatch the loop walks (`for
state, action, reward, next_state, done in minibatch`) is reported here, not as HARP404,
when nothing in the loop trains that model (a target model beside the online one's `fit`):
the calls are independent and one batched call replaces them all.

Assumes: the model treats examples (or steps) independently (no batch statistics in
train mode, no state kept between calls).
"""

from __future__ import annotations

from harp_ir.analysis import (
    Assumption,
    constant_value,
    describe_loop,
    enclosing_loop,
    few_iterations,
    invariant_in,
    iterations_at_least,
    loop_counter,
    loop_mutates,
    loop_runs,
    model_forward,
    paced,
    producer,
    record_hint,
    stateless_function,
    string_attr,
    unit_slice,
    value_kind,
    value_name,
    walk,
)
from harp_ir.callgraph import differentiates, trains
from harp_ir.passes.keras_call_in_loop import independent_predict
from harp_ir.rules import HintSpec, Rule

HINT = "HARP403"


def _callee_is_model(op) -> str:
    owner = op.operands[0].owner
    if not hasattr(owner, "operation"):
        return ""
    callee = owner.operation
    if string_attr(callee, "harp.kind") == "module" or string_attr(op, "harp.compiled"):
        return string_attr(callee, "name") or string_attr(callee, "attr") or "the model"
    return ""


def example_read(value, loop):
    """The op that reads one example of a tensor per iteration of `loop` for `value`:
    the subscript `x[i]`, `x[i:i + 1]` or `x[i, b]` (`b` fixed in the loop, `i` the loop's
    counter), seen through `.unsqueeze(0)`/`.view`/`.reshape`; or the load of the loop's
    variable when it iterates a tensor. None when `value` is no such example."""
    owner = value.owner
    var = string_attr(loop, "target")
    if not hasattr(owner, "operation"):
        return None
    op = owner.operation
    if op.name == "host.call" and string_attr(op, "method") in ("unsqueeze", "view",
                                                               "reshape"):
        return example_read(op.operands[0].owner.operation.operands[0], loop)
    if op.name == "host.load":
        # the loop visits a tensor's rows (not the list of feature maps a model returns)
        return op if string_attr(op, "name") == var and \
            value_kind(loop.operands[0]) == "tensor" else None
    if op.name != "host.getitem":
        return None
    var = loop_counter(loop)
    index = op.operands[1].owner
    if not hasattr(index, "operation"):
        return None
    idx = index.operation
    if idx.name == "host.tuple":  # `x[i, b]` with `b` fixed in the loop: one example
        first, rest = idx.operands[0], list(idx.operands)[1:]
        return op if _is_load_of(producer(first), var) and \
            all(invariant_in(v, loop, clobbered=loop_mutates(loop)) for v in rest) else None
    if idx.name == "host.slice":  # `x[i:i + 1]` is one example; `x[i:i + batch]` a batch
        lower, upper, step = (producer(v) for v in idx.operands)
        if step is None or constant_value(step.result) is not None or \
                upper is None or upper.name != "host.binop" or \
                string_attr(upper, "op") != "add" or \
                sorted(constant_value(v) == 1 for v in upper.operands) != [False, True] or \
                not any(_is_load_of(producer(v), var) for v in upper.operands):
            return None
        idx = lower
    return op if _is_load_of(idx, var) else None


def _one_step(value, loop) -> int:
    """The axis (1 or more) of `x[:, t]` / `x[:, :, t]` / `x[:, t:t + 1]` with `t` the loop
    variable and full slices before it; 0 when `value` is not such a step."""
    op = producer(value)
    index = producer(op.operands[1]) if op is not None and op.name == "host.getitem" \
        else None
    if index is None or index.name != "host.tuple" or len(index.operands) < 2:
        return 0
    parts = [producer(v) for v in index.operands]
    var = loop_counter(loop)
    for axis, part in enumerate(parts):
        if part is None:
            return 0
        if _is_load_of(part, var) or part.name == "host.slice" and unit_slice(part) == var:
            rest = parts[axis + 1:]
            return axis if axis > 0 and all(p is not None and _full_slice(p)
                                            for p in rest) else 0
        if not _full_slice(part):
            return 0
    return 0


def _full_slice(op) -> bool:
    """`:`"""
    return op.name == "host.slice" and all(constant_value(v) is None and
                                           producer(v).name == "host.constant"
                                           for v in op.operands)


def _is_load_of(op, name: str) -> bool:
    return op is not None and op.name == "host.load" and string_attr(op, "name") == name


def _keras_examples(op) -> None:
    """`model.predict(x)` of a Keras model on each element of a minibatch the loop walks,
    with independent calls (`keras_call_in_loop.independent_predict`): one batched call
    does the same work, and pays Keras's per-call set-up once."""
    model = independent_predict(op)
    if not model:
        return
    loop = enclosing_loop(op)
    element = value_name(op.operands[1]) or "the element"
    message = (f"Keras `{model}.predict({element})` runs on one example per iteration of "
               f"{describe_loop(loop)}, and nothing in the loop trains `{model}`: the calls "
               f"are independent; predict all the examples in one call "
               f"(`{model}.predict_on_batch(np.vstack(...))`) instead of one call each, "
               f"each of which sets up a data adapter, callbacks and a loop over batches")
    assumptions = [Assumption("independent-examples", model, "medium", "speculated",
                              "the model treats examples independently (no state kept "
                              "between calls)"), loop_runs(loop)]
    if few_iterations(loop):
        assumptions.append(Assumption("hot-loop", describe_loop(loop), "high", "speculated",
                                      "a handful of iterations (a constant range): "
                                      "batching saves little"))
    record_hint(op, HINT, message, assumptions)


def run(module, pass_=None) -> None:
    for op in walk(module):
        if op.name != "host.call" or len(op.operands) < 2:
            continue
        _keras_examples(op)
        loop = enclosing_loop(op)
        if loop is None or loop.name != "host.for":
            continue
        args = list(op.operands)[1:]
        model = _callee_is_model(op)
        if model:
            example = example_read(args[0], loop) is not None
            step = 0 if example else _one_step(args[0], loop)
            others = args[1:]
        else:  # a model of the program (`model(state[t])`, its `forward`), one example
            at = next((i for i, v in enumerate(args) if example_read(v, loop) is not None),
                      None)
            func = stateless_function(op) if at is not None else None
            if func is None or not model_forward(func):
                continue  # a method or function called per element is HARP401's
            example, step, others = True, 0, args[:at] + args[at + 1:]
            model = value_name(op.operands[0]) or "the model"
        changed = loop_mutates(loop)
        if (example or step) and (trains(loop) or differentiates(loop)):
            continue  # each call sees the weights the previous iteration's update left,
            # or its own gradient is taken (MAML's per-task fast weights)
        if not (example or step) or not all(
                invariant_in(v, loop, clobbered=changed) for v in others):
            continue  # another argument changes in the loop (a state `h` it carries)
        if step:
            whole = value_name(producer(op.operands[1]).operands[0]) or "x"
            message = (f"`{model}` is called on one step along axis {step} per iteration "
                       f"of {describe_loop(loop)}; the calls are independent: call it once "
                       f"on all steps (for a module that maps the last axis, "
                       f"`{model}({whole})` is the stack of the per-step results along axis "
                       f"{step})")
        else:
            message = (f"`{model}` is called on one example per iteration of "
                       f"{describe_loop(loop)}; the calls are independent: call it once on "
                       f"the whole batch")
        assumptions = [
            Assumption("independent-examples", model, "medium", "speculated",
                       "the model treats examples independently (eval mode, no batch "
                       "statistics)" if example else
                       "the model treats each step independently (no state kept between "
                       "calls, nothing mixes the steps)"),
        ]
        waiting = paced(op)
        if waiting is not None:
            assumptions.append(waiting)
        elif step and iterations_at_least(loop) <= 16:
            assumptions.append(Assumption(
                "hot-loop", describe_loop(loop), "high", "speculated",
                "the number of steps is not known to be large: a call per step costs a "
                "launch each, which matters for long sequences, little for a few steps"))
        elif few_iterations(loop):
            assumptions.append(Assumption(
                "hot-loop", describe_loop(loop), "high", "speculated",
                "a handful of iterations (a constant range): batching saves little"))
        record_hint(op, HINT, message, assumptions)


RULE = Rule(
    flag="harp-per-sample-call",
    summary="Find models called one example at a time in loops (HARP403)",
    run=run,
    hint=HintSpec(
        id="HARP403",
        name="per-sample-call",
        finds="a model or graph function called on one example at a time in a loop, or on "
              "one step along another axis (`emb(x[:, t])` per time step), when the calls "
              "are independent; a Keras `predict` on each example of a minibatch the loop "
              "walks, when nothing in the loop trains that model",
        why="each call pays the launch and Python overhead for one example, where one batched "
            "call amortises it",
        refactoring="one batched call",
        before="preds = [model(x[i:i + 1]) for i in range(len(x))]\n",
        after="preds = model(x)\n",
        assumptions=("tensor", "hot-loop", "independent-examples", "loop-runs"),
    ),
)
