"""How often a statement runs per step of a loop, through the calls that lead to it.

A statement in a function with no loop of its own runs once per call; the loop that makes
it hot is around a call of that function, or around a call of a caller (an agent's
`sample_action` called on every environment step from `main`). `contexts(op)` follows the
calls of the file's functions and methods up to `DEPTH` levels and gives, for each loop
reached, the chain of functions in between and how often the statement runs per iteration:
a guard anywhere on the chain (`if step % 100 == 0: evaluate()`) counts, the rarest wins.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from torch_mlir import ir

from harp_ir import analysis, autograd, catalogue, notebook
from harp_ir.analysis import (
    RARE,
    SESSION_RUN,
    Assumption,
    Frequency,
    accelerator,
    base_classes,
    branches,
    call_arguments,
    called_function,
    called_functions,
    calls_of,
    definition,
    describe_loop,
    does_model_work,
    enclosing_scope,
    few_iterations,
    frequency,
    guard_kind,
    holds,
    host_module,
    imported_accelerator,
    in_compiled_function,
    in_other_file,
    int_attr,
    loops_around,
    made_once,
    per_run,
    producer,
    returned_values,
    runs_inner_loop,
    same_op,
    string_attr,
    strings_attr,
    user,
    walk,
    workflow_files,
)

DEPTH = 4  # calls followed up from a statement to the loop that runs it
RANK = ("always", "conditional", "last", "once", "periodic", "off")  # most often first


@dataclass(frozen=True)
class Context:
    """A loop that runs a statement: `loop`, the functions between them (innermost
    first), how often per iteration, and `site`: the statement itself, or the call in the
    loop that leads to it."""

    loop: ir.Operation
    chain: tuple[ir.Operation, ...]
    how_often: Frequency
    site: ir.Operation
    origin: ir.Operation | None = None  # the statement itself, at the end of the chain

    def phrase(self, at: ir.Operation) -> str:
        """"on every iteration of the `while` loop (line 9) through `Agent.act`", with the
        loop's file when it is not `at`'s."""
        text = self.how_often.phrase(self.loop)
        elsewhere = in_other_file(self.loop, at)
        if elsewhere:
            filename = string_attr(host_module(self.loop), "filename")
            if notebook.is_notebook(filename):  # its lines are the joined cells'
                text = _LINE.sub(lambda m: _cell_line(filename, int(m[1])) or m[0], text)
            text += elsewhere
        if self.chain:
            text += " through " + ", ".join(f"`{function_name(f)}`" for f in self.chain)
        return text

    def on_gpu(self, at: ir.Operation) -> Assumption:
        """The "accelerator" assumption of a benefit that exists only on a GPU (launches,
        a short step), as the program shows it: low risk when a file on the chain places
        tensors there (a replay memory's file places nothing; the agent that calls it
        does), medium when a file they import does (a package's device helper), high
        otherwise."""
        on_chain = (at, self.site, *self.chain)
        found = min((accelerator(o) for o in on_chain),
                    key=lambda a: ("low", "medium", "high").index(a.risk))
        if found.risk == "low":
            return found
        imported = next((a for o in on_chain if (a := imported_accelerator(o)) is not None),
                        None)
        return imported or Assumption("accelerator", "", "high", "speculated",
                                      found.reason or "nothing shows the program uses a GPU")

    def frequency_assumptions(self) -> list[Assumption]:
        """What a per-step hint rests on about how often this context runs it: the guard
        on the chain, and whether it runs once per episode or epoch."""
        return [a for a in (self.how_often.assumption(self.loop), self.per_outer_iteration(),
                            self.beside_inner_loop(), evaluation_pass(self.loop))
                if a is not None]

    def beside_inner_loop(self) -> Assumption | None:
        """See `beside_steps`."""
        return beside_steps(self.loop, self.origin or self.site)

    def per_outer_iteration(self) -> Assumption | None:
        """A high-risk `hot-loop` speculation when the site sits in an inner loop of
        `loop` that does model work (`if done: agent.update()` in the steps of an episode):
        it then runs about once per iteration of `loop`, an episode or an epoch, not on
        every step."""
        inner = [o for o in loops_around(self.site) if holds(self.loop, o) and
                 not same_op(o, self.loop) and does_model_work(o)]
        if not inner:
            return None
        return Assumption("hot-loop", describe_loop(self.loop), "high", "speculated",
                          f"it runs inside {describe_loop(inner[0])}, so about once per "
                          f"iteration of {describe_loop(self.loop)} (an episode or an "
                          f"epoch), not on every step")


_LINE = re.compile(r"\bline (\d+)\b")


def _cell_line(filename: str, line: int) -> str:
    try:
        at = notebook.joined(filename).locate(line)
    except notebook.NotebookError:
        return ""
    return f"cell {at[0]} line {at[1]}" if at else ""


def function_name(func: ir.Operation) -> str:
    owner = func.parent if func.parent is not None and func.parent.name == "host.class" \
        else None
    name = string_attr(func, "sym_name")
    return f"{string_attr(owner, 'sym_name')}.{name}" if owner is not None else name


def _rarer(a: Frequency, b: Frequency) -> Frequency:
    if a.kind == b.kind:
        return a if a.period >= b.period else b
    return a if RANK.index(a.kind) >= RANK.index(b.kind) else b


def _guard_in_function(op: ir.Operation, func: ir.Operation) -> Frequency:
    """How often `op` runs per call of `func` (no loop between them): always, or under the
    `if`s around it, the rarest first (`guard_kind`); the `else` of any test runs on most
    calls."""
    found = Frequency()
    for if_op, region in branches(op, func):
        cond = producer(if_op.operands[0])
        kind, period = guard_kind(if_op.operands[0], func, if_op) if region == 0 else \
            ("conditional", 0)
        text = string_attr(cond, "harp.source") if cond is not None else ""
        if region != 0:  # the `else` runs where the test fails
            text = f"not ({text})" if text else ""
        here = Frequency(text or "the condition", kind, period)
        found = _rarer(here, found)
    return found


def contexts(op: ir.Operation, depth: int = DEPTH) -> list[Context]:
    """Every loop that runs `op`, directly or through calls of the functions around it."""
    # the loops of its own function, innermost first (`for t in range(10)` in `while not
    # done`), then those around the calls of the function (a training helper whose own loop
    # is a few updates runs them on every episode of its caller)
    found = [Context(loop, (), frequency(op, loop), op, op) for loop in loops_around(op)]
    func = enclosing_scope(op)
    if func.name != "host.func" or depth == 0:
        return found
    own = _guard_in_function(op, func)
    for site in calls_of(func):
        if in_compiled_function(site, ("tensorflow.function",)):
            continue  # traced once into a graph: not run per iteration by Python
        for ctx in contexts(site, depth - 1):
            found.append(Context(ctx.loop, (func, *ctx.chain), _rarer(own, ctx.how_often),
                                 ctx.site, op))
    return found


def per_step(op: ir.Operation, hot) -> Context | None:
    """The context in which `op` runs most often, among loops `hot(loop)` accepts (loops
    over batches or environment steps): every iteration first, then a loop of more than a
    handful of iterations, then the shortest chain. None when no such loop runs it."""
    found = [c for c in contexts(op) if hot(c.loop)]
    found.sort(key=lambda c: (RANK.index(c.how_often.kind), few_iterations(c.loop),
                              len(c.chain)))
    return found[0] if found else None


#: TensorFlow and Keras calls that update a model: an optimizer's, or Keras' own steps
_TF_TRAINING = ("apply_gradients", "minimize", "train_on_batch")


#: calls that take gradients: autograd's backward, an optimizer's step (PyTorch, TF)
_TRAINING_METHODS = ("backward", "step", "minimize", "apply_gradients")
#: functions that run a backward pass through what they are given (and need its graph)
_GRADIENT_FUNCTIONS = ("torch.autograd.grad", "torch.autograd.backward")


def runs_backward(op: ir.Operation) -> bool:
    """A call that trains or takes gradients: `backward()`, an optimizer's step, or
    `torch.autograd.grad` (a gradient penalty, an input's gradient, MAML's fast weights)."""
    return op.name == "host.call" and (string_attr(op, "method") in _TRAINING_METHODS or
                                       string_attr(op, "qualname") in _GRADIENT_FUNCTIONS)


def differentiates(region: ir.Operation, depth: int = 2) -> bool:
    """Whether running `region` takes gradients (`runs_backward`), in it or in the
    program's functions it calls (`depth` levels): a module whose `forward` runs its own
    meta-update (MAML), a `finetune()` helper."""
    for op in walk(region):
        if runs_backward(op):
            return True
        if depth > 0 and op.name == "host.call" and any(
                differentiates(f, depth - 1) for f in called_functions(op)):
            return True
    return False


def trains(loop: ir.Operation, depth: int = 2) -> bool:
    """Whether an iteration of `loop` runs a training step: `backward()` or an optimizer's
    `step()` (TensorFlow: `apply_gradients`, `minimize`, Keras' `train_on_batch` or `fit`),
    in its body or in a function of the program it calls (`depth` levels)."""
    return any(True for _ in training_sites(loop, depth))


def training_sites(loop: ir.Operation, depth: int = 2):
    """The calls in `loop` that run a training step, directly or through the program's
    functions (see `trains`)."""
    for op in walk(loop):
        if op.name != "host.call":
            continue
        method = string_attr(op, "method")
        if method == "backward" or string_attr(op, "qualname").startswith("torch.optim.") \
                and method == "step" or method in _TF_TRAINING or _keras_fit(op):
            yield op
        if method == "run" and string_attr(op, "qualname") in (SESSION_RUN, "") and \
                _runs_training_op(op):
            yield op  # `sess.run(train_op)`, the session a parameter or an attribute
        if method == "step":
            callee = producer(op.operands[0])
            owner = producer(callee.operands[0]) if callee is not None and \
                callee.name == "host.getattr" else None
            if owner is not None and (string_attr(owner, "harp.kind") == "optimizer" or
                                      _optimizer_parameter(owner)):
                yield op
        if _runs_update_function(op):
            yield op  # `self.a_opt([states, actions, advantages])`, a Keras 2 update step
        if depth > 0 and any(trains(f, depth - 1) for f in called_functions(op)):
            yield op


def _optimizer_parameter(load: ir.Operation) -> bool:
    """`optimizer_g.step()` in `train(..., optimizer_g, ...)` when every call of `train`
    passes an optimizer the program makes (`torch.optim.Adam(...)`)."""
    if load.name != "host.load":
        return False
    passed = analysis.passed_arguments(load.result)
    return bool(passed) and all(argument is not None and _made_optimizer(argument)
                                for argument, _ in passed)


def _made_optimizer(value: ir.Value) -> bool:
    """Whether `value` is an optimizer the program makes: a construction, or a name bound
    to one, possibly also to one restored from a checkpoint (`opt = ckpt["opt"]` in the
    other branch)."""
    if autograd.optimizer_made(value) is not None:
        return True
    load = producer(value)
    if load is None or load.name != "host.load":
        return False
    for scope in analysis.binding_scopes(load):
        made = autograd.constructions(analysis.definitions(value, scope),
                                      string_attr(load, "name"))
        if made:
            return all(m.name == "host.call" and string_attr(m, "harp.kind") == "optimizer"
                       for m in made)
    return False


def runs_session(region: ir.Operation, depth: int = 3) -> bool:
    """Whether running `region` may run a TF1 graph: a `run` or `eval` method call (a
    session's, a tensor's, a Keras backend step's; any receiver, to be safe), in it or in
    the program's functions it calls (`depth` levels)."""
    for op in walk(region):
        if op.name != "host.call":
            continue
        if string_attr(op, "method") in ("run", "eval") or \
                string_attr(op, "qualname") in _BACKEND_FUNCTIONS:
            return True
        if depth > 0 and any(runs_session(f, depth - 1) for f in called_functions(op)):
            return True
    return False


#: Keras backend functions that build a callable graph step, training when given `updates`
_BACKEND_FUNCTIONS = ("keras.backend.function", "tensorflow.keras.backend.function",
                      "tensorflow.compat.v1.keras.backend.function")


def _runs_update_function(call: ir.Operation) -> bool:
    """Whether `call` calls a step Keras' backend built with the optimizer's updates
    (`self.a_opt = K.function([s, a, adv], [], updates=opt.get_updates(...))`, bound
    once, or returned by a method of the program that builds it)."""
    made = made_once(call.operands[0])
    for _ in range(2):
        if made is None or made.name != "host.call":
            return False
        if string_attr(made, "qualname") in _BACKEND_FUNCTIONS:
            return any(k == "updates" for k, _ in call_arguments(made))
        returned = returned_values(made)
        made = producer(returned[0]) if len(returned) == 1 else None
    return False


def _keras_fit(op: ir.Operation) -> bool:
    """`model.fit(x, y, epochs=1, verbose=0)`: a Keras training run, known by the keywords
    only Keras' `fit` takes (scikit-learn's takes neither)."""
    return string_attr(op, "method") == "fit" and \
        any(k in ("epochs", "verbose", "batch_size") for k, _ in call_arguments(op))


def _runs_training_op(run: ir.Operation) -> bool:
    """Whether a TF1 `Session.run` fetches an op an optimizer made (`train_op =
    optimizer.minimize(loss)` bound once, then `sess.run([loss, train_op], feed)`): the
    run is a training step. Fetching such an op also shows the receiver is a session."""
    arguments = call_arguments(run)
    fetches = next((v for k, v in arguments if k in ("", "fetches")), None)
    made = producer(fetches) if fetches is not None else None
    values = list(made.operands) if made is not None and made.name in (
        "host.list", "host.tuple") else [fetches]
    for value in values:
        op = made_once(value) if value is not None else None
        if op is not None and op.name == "host.call" and \
                string_attr(op, "method") in _TF_TRAINING:
            return True
    return False


def training_work(loop: ir.Operation) -> bool:
    """A loop of the program's main work: it trains, or it runs inside a loop that does
    and is not a pass over a data set (an agent acting between updates is; an evaluation
    over a validation loader once per epoch is not)."""
    if not does_model_work(loop) or few_iterations(loop):
        return False
    if trains(loop):
        return True
    if over_data(loop):
        return False  # a pass over a loader that trains nothing: an evaluation
    inner = loop
    for outer in loops_around(loop):  # innermost first
        if frequency(inner, outer).kind in RARE:
            return False  # sampling under `if step % 500 == 0:` is not the main work
        if trains(outer):
            return True
        inner = outer
    # an on-policy rollout: `train()` collects an episode step by step, then updates on it
    func = enclosing_scope(inner)
    return func.name == "host.func" and frequency(inner, func).kind not in RARE and \
        trains(func)


def workflow_trains(op: ir.Operation) -> bool:
    """Whether the files that run with `op`'s (`analysis.workflow_files`: the scripts and
    modules joined by imports) train: a `backward()`, a Keras `fit` (a training loop of
    its own), or a loop that runs a training step (an optimizer's step, Keras' or TF1's
    training runs). A folder of separate example
    scripts does not make an inference script's loop a side pass of another's training."""
    return _files_train(tuple(workflow_files(op)))


@per_run()
def _files_train(files: tuple) -> bool:
    return any((o.name == "host.call" and (string_attr(o, "method") == "backward" or
                                           _keras_fit(o)) or
                o.name in ("host.for", "host.while") and trains(o)) and never_runs(o) is None
               for f in files for o in walk(f))


def loop_run_rate(loop: ir.Operation) -> list[Assumption]:
    """What a hint on the cost of a loop's own iterations (a per-element loop, quadratic
    growth) rests on about how often the loop itself runs: nothing when it is a loop of
    the program's training work; else the guards and once-per-epoch of the training loop
    that runs it through calls; else, in a program that trains in a loop that never
    reaches it, a high-risk speculation: it runs outside the steps (set-up, evaluation,
    sampling, plotting once an epoch)."""
    if training_work(loop):
        return []
    ctx = per_step(loop, training_work)
    if ctx is not None:
        return ctx.frequency_assumptions()
    if not workflow_trains(loop):
        return []  # an inference or data-processing program: this may be its main work
    return [Assumption("hot-loop", describe_loop(loop), "high", "speculated",
                       "the program trains in another loop, which does not run this one: "
                       "it runs outside the training steps (set-up, evaluation, sampling, "
                       "or once an epoch)")]


def over_data(loop: ir.Operation) -> bool:
    """Whether a `for` loop iterates a data loader (directly, or wrapped in `enumerate`,
    `tqdm` and the like)."""
    return iterated_loader(loop) is not None


def iterated_loader(loop: ir.Operation) -> ir.Operation | None:
    """The op that makes the data loader a `for` loop iterates (directly, or wrapped in
    `enumerate`, `tqdm` and the like), or None."""
    if loop.name != "host.for":
        return None
    made, seen, last = producer(loop.operands[0]), 0, None
    while made is not None and seen < 5:
        if string_attr(made, "harp.kind") == "dataloader":
            if made.name != "host.load":
                return made
            last = made  # a loader whose construction may not be visible (a parameter)
        if made.name == "host.load":
            found = definition(made.result, enclosing_scope(made))
            made = found if found is not None and found != made else None
        elif made.name == "host.call" and len(made.operands) > 1:
            made = producer(made.operands[1])  # `enumerate(loader)`, `tqdm(loader)`
        else:
            break
        seen += 1
    return last


def evaluation_loop(loop: ir.Operation) -> str:
    """Why `loop` is an evaluation or inference pass of a program that trains elsewhere
    (its iterations run no backward or optimizer step, no loop around it in its function
    does, and another part of the program does): such a pass runs once, or once per epoch,
    not on the program's every step. "" when it is not one."""
    if trains(loop) or any(_trains_around(outer, loop) for outer in loops_around(loop)):
        return ""
    if training_step_caller(loop) is not None:
        return ""  # a helper a training loop calls (a gradient-norm loop in each step)
    if not workflow_trains(loop):
        return ""  # an inference program: this pass is its main loop
    return ("an evaluation pass (its iterations run no backward or optimizer step, and the "
            "program trains elsewhere): it runs once, or once per epoch")


def evaluation_pass(loop: ir.Operation) -> Assumption | None:
    """The high-risk `hot-loop` speculation a per-iteration hint in `loop` rests on when
    `loop` is an evaluation pass of a program that trains elsewhere (`evaluation_loop`):
    blind readers judge a cost there by how often the pass runs, once or once an epoch."""
    why = evaluation_loop(loop)
    return Assumption("hot-loop", describe_loop(loop), "high", "speculated", why) if why \
        else None


def beside_steps(loop: ir.Operation, op: ir.Operation) -> Assumption | None:
    """A high-risk `hot-loop` speculation when an iteration of `loop` also runs an inner
    loop of model work that does not hold `op` (`for ep: while not done: act(...)` then
    `replay()`): `op` runs once per episode or epoch, beside the steps, not on each."""
    if not runs_inner_loop(loop, op, steps=True):
        return None
    return Assumption("hot-loop", describe_loop(loop), "high", "speculated",
                      f"an iteration of {describe_loop(loop)} also runs an inner loop of "
                      f"model work: this runs once per such iteration (an episode or an "
                      f"epoch), not on every step")


def run_rate(op: ir.Operation, loop: ir.Operation) -> list[Assumption]:
    """What a hint on a cost `op` pays per iteration of `loop` rests on about how often it
    runs: the guards between them (`frequency`), whether the steps are an inner loop beside
    it (`beside_steps`), and the loop's role in the program (an evaluation pass runs once,
    or once an epoch, not on every step)."""
    return [a for a in (frequency(op, loop).assumption(loop), beside_steps(loop, op),
                        evaluation_pass(loop)) if a is not None]


def training_step_caller(op: ir.Operation) -> Context | None:
    """The context in which a training step runs `op` through calls (a model's `forward`,
    a gradient-norm helper, called from the loop of steps); None when no step does."""
    return next((c for c in contexts(op) if c.chain and _trains_around(c.loop, c.site)),
                None)


def _trains_around(outer: ir.Operation, loop: ir.Operation) -> bool:
    """Whether an iteration of `outer` (a loop around `loop`, or around the call that runs
    it) is itself a training step: it trains other than in a loop beside `loop`, and other
    than through a call of a function that trains in a loop of its own. An epoch loop
    whose training is its loop over batches, or a `train(...)` call that loops over them,
    with the validation pass after it, does not make the validation pass a training loop;
    a gradient-norm helper called in the loop of steps runs on every step."""
    for site in training_sites(outer):
        beside = [inner for inner in loops_around(site) if holds(outer, inner) and
                  not same_op(inner, outer) and not holds(inner, loop)]
        if beside:
            continue
        called = called_functions(site)
        if called and all(_trains_in_own_loop(f) for f in called):
            continue
        return True
    return False


def _trains_in_own_loop(func: ir.Operation) -> bool:
    """Whether `func` runs its training steps in a loop of its own (an epoch's pass), not
    a handful of updates (an agent's `replay()` of ten minibatches after an episode)."""
    return any(o.name in ("host.for", "host.while") and trains(o, 1) and
               not few_iterations(o) for o in walk(func))


def loops_iterating(value: ir.Value, depth: int = 2, runs: list | None = None,
                    draws: list | None = None) -> list[ir.Operation] | None:
    """The loops that iterate `value` (a data loader): `for x in loader`, through
    `enumerate`/`tqdm`/`zip`, locals, and functions of the program it is passed to (up to
    `depth` calls: `test(model, test_loader)`); None when it goes somewhere this cannot
    follow (an attribute, a container, unknown code). Given `runs`, a library runner the
    catalogue knows (`evaluator.run(val_loader)`) is followed too: (its call, the role it
    runs the loader in) is added to `runs`; given `draws`, each loop found by a draw of one
    batch (`next(iter(test_loader))` once an epoch) is added with its draw."""
    found: list[ir.Operation] = []
    work, seen = [value], 0
    while work:
        seen += 1
        if seen > 200:
            return None
        v = work.pop()
        for use in v.uses:
            op = user(use)
            if op.name == "host.store":
                loads = autograd.loads_reading(op)
                if loads is None:
                    loads = _global_loads(op)
                if loads is None:
                    loads = _reaching_loads(op)
                if loads is None:
                    return None
                work.extend(load.result for load in loads)
            elif op.name == "host.for" and use.operand_number == 0:
                if any(o.name == "host.yield_value" for o in walk(op)):
                    return None  # a generator passing the batches on: its consumer decides
                found.append(op)
            elif op.name == "host.call" and use.operand_number > 0:
                qualname = string_attr(op, "qualname")
                if qualname in ("builtins.enumerate", "builtins.zip", "builtins.iter") or \
                        qualname.startswith("tqdm"):
                    work.extend(op.results)
                    continue
                if qualname == "builtins.next":  # one batch drawn: `next(iter(loader))`
                    drawn = _drawing_loop(op)
                    if drawn is False:
                        return None
                    found += [drawn] if drawn is not None else []
                    if drawn is not None and draws is not None:
                        draws.append((drawn, op))
                    continue
                if qualname == "builtins.len":  # `len(loader)`: a size, not an iteration
                    continue
                role = runner_role(op, use.operand_number) if runs is not None else None
                if role is not None:
                    runs.append((op, role))
                    continue
                func = called_function(op) if depth > 0 else None
                param = analysis.parameter_bound(func, op, use.operand_number) if func else None
                if param is None:
                    return None
                inner = loops_iterating(param, depth - 1, runs, draws)
                if inner is None:
                    return None
                found += inner
            elif op.name == "host.getattr" and string_attr(op, "attr") in (
                    "dataset", "batch_size", "__len__"):
                continue  # `len(loader.dataset)`: a size, not an iteration
            elif op.name == "host.getattr" and string_attr(op, "attr") in (
                    "__iter__", "__next__", "next"):  # (`next`: Python 2's iterators)
                calls = [user(u) for u in op.result.uses]
                if not all(c.name == "host.call" and c.operands[0] == op.result
                           for c in calls):
                    return None
                for call in calls:  # `loader.__iter__()`, `it.__next__()`
                    if string_attr(op, "attr") == "__iter__":
                        work.extend(call.results)
                    elif (drawn := _drawing_loop(call)) is False:
                        return None
                    elif drawn is not None:
                        found.append(drawn)
                        if draws is not None:
                            draws.append((drawn, call))
            elif op.name in ("hostcf.return", "host.tuple") and depth > 0:
                # `return train_loader, test_loader`: where each call's result goes
                callers = _returned_to(op, use.operand_number)
                if callers is None:
                    return None
                work.extend(callers)
            else:
                return None
    return found


def runner_role(call: ir.Operation, place: int) -> str | None:
    """The role ("train", "evaluate", "") in which the library runner `call` runs the data
    loader it is given as operand `place`, when the catalogue knows the runner: a method
    called on an object a library call made (`evaluator = create_supervised_evaluator(
    model)`, then `evaluator.run(loader)`), or a method of the program's own class of that
    name when the library is the program; None otherwise."""
    found = runner_maker(call)
    if found is None:
        return None
    keyword = strings_attr(call, "kwnames")[place - 1]
    return catalogue.load().loader_role(found[1], string_attr(producer(call.operands[0]),
                                                              "attr"), place - 1, keyword)


def runner_maker(call: ir.Operation, own_classes: bool = True
                 ) -> tuple[ir.Operation | None, str] | None:
    """For `obj.method(...)`: (the call that made `obj`, its qualified name), when a call
    of a library or of the program made it (`evaluator = create_supervised_evaluator(
    model)`; a closure's read of it too), or, with `own_classes`, (None, the class's name)
    when `method` is a method of the program's own class (the library analysed as the
    program); else None."""
    callee = producer(call.operands[0])
    if callee is None or callee.name != "host.getattr":
        return None
    made = definition(callee.operands[0], enclosing_scope(callee))
    if made is None and (load := producer(callee.operands[0])) is not None and \
            load.name == "host.load":
        made = _bound_once_outside(load)  # a closure's read: `evaluator` of the trainer
    maker = _made_by(made) if made is not None and made.name == "host.call" else ""
    if maker:
        return made, maker
    method = called_function(call) if own_classes else None
    if method is not None and method.parent is not None and \
            method.parent.name == "host.class":  # the program's class that defines it
        return None, _program_qualname(method.parent)
    return None


def runs_library_training(call: ir.Operation) -> bool:
    """Whether `call` hands a library runner the data it trains on (`trainer.run(loader)`
    of an engine `create_supervised_trainer` made, `trainer.fit(model, loader)`)."""
    return call.name == "host.call" and any(
        runner_role(call, place) == "train" for place in range(1, len(call.operands)))


def _made_by(call: ir.Operation) -> str:
    """The qualified name of what `call` calls: a library's (its qualname), or a function
    or class of the program (its module's dotted name and its own: a library analysed as
    the program, `ignite.engine.create_supervised_evaluator`)."""
    qualname = string_attr(call, "qualname")
    if qualname:
        return qualname
    func = called_function(call)
    if func is None:
        return ""
    owner = func.parent
    if string_attr(func, "sym_name") == "__init__" and owner is not None and \
            owner.name == "host.class":
        return _program_qualname(owner)  # `Model(...)` runs `Model.__init__`
    return _program_qualname(func)


def _program_qualname(defined: ir.Operation) -> str:
    """A function's or class's qualified name in the program: its file's dotted module
    name and its own (`ignite.engine.create_supervised_evaluator`)."""
    module = host_module(defined)
    return f"{string_attr(module, 'sym_name')}.{string_attr(defined, 'sym_name')}" \
        if module is not None else ""


def _bound_once_outside(load: ir.Operation) -> ir.Operation | None:
    """What a nested function's read of a name its own function never binds reads: the
    value of the one store of that name in an enclosing function (an event handler reading
    the `evaluator` its trainer set up), as `definition` finds it; None when bound
    elsewhere or more than once."""
    name, scope = string_attr(load, "name"), enclosing_scope(load)
    if name in analysis._stores(scope):
        return None
    outer = enclosing_scope(scope) if scope.name == "host.func" else None
    while outer is not None and name not in analysis._stores(outer):
        outer = enclosing_scope(outer) if outer.name == "host.func" else None
    return definition(load.result, outer) if outer is not None else None


def _drawing_loop(draw: ir.Operation) -> ir.Operation | None | bool:
    """Where `next(it)` draws its batches: the innermost loop around it in its function
    (a batch per iteration), None at a module's top level (one batch, once: a sample for
    plots), False in a function outside any loop (how often callers run it is not
    followed)."""
    loop = next(iter(loops_around(draw)), None)
    if loop is not None:
        return loop
    return None if enclosing_scope(draw).name == "host.module" else False


def _returned_to(op: ir.Operation, place: int) -> list[ir.Value] | None:
    """The values that take what a function returns, at each call of it in the program:
    for `return v`, the call's result; for `return a, b`, the name unpacked at `place`
    (`train_loader, test_loader = data_generator(...)`). None when a return or a call
    is used some other way."""
    if op.name == "host.tuple":
        users = [user(u) for u in op.result.uses]
        if len(users) != 1 or users[0].name != "hostcf.return":
            return None
        size, op = len(op.operands), users[0]
    else:
        size, place = 0, -1
    func = enclosing_scope(op)
    if func.name != "host.func":
        return None
    found = []
    for call in calls_of(func):
        if place < 0:
            found.append(call.result)
            continue
        for use in call.result.uses:
            unpack = user(use)
            if unpack.name != "host.unpack" or len(unpack.results) != size or \
                    int_attr(unpack, "starred") != -1:
                return None
            found.append(unpack.results[place])
    return found


def _global_loads(store: ir.Operation) -> list[ir.Operation] | None:
    """The reads of a name bound once in a script or a function (`test_loader =
    DataLoader(...)` at the top of a script, `val_loader` of a trainer read by its event
    handlers): in its scope and in the functions that read it from there (`global` or
    closure reads); None when rebound anywhere it is visible."""
    scope = enclosing_scope(store)
    if scope.name not in ("host.module", "host.func"):
        return None
    outer = "global" if scope.name == "host.module" else "nonlocal"
    name = string_attr(store, "name")
    found = []
    for o in walk(scope):
        if string_attr(o, "name") != name or o.name not in ("host.load", "host.store"):
            continue
        reaches = same_op(enclosing_scope(o), scope) or string_attr(o, "scope") == outer
        if o.name == "host.store" and not same_op(o, store) and reaches:
            return None
        if o.name == "host.load" and reaches:
            found.append(o)
    return found


def _reaching_loads(store: ir.Operation) -> list[ir.Operation] | None:
    """The reads of a name bound several times in its scope that straight-line code
    leads from `store` (`train_loader = DataLoader(ds)`, then `train_loader =
    DataLoader(train_part)` before any loop: the first is read by nothing); None when a
    function reads the name or some read's binding is not known."""
    scope, name = enclosing_scope(store), string_attr(store, "name")
    found = []
    for o in walk(scope):
        if o.name != "host.load" or string_attr(o, "name") != name:
            continue
        if not same_op(enclosing_scope(o), scope):
            return None  # a function of the scope reads it
        reached = analysis.reaching_store(o)
        if reached is None:
            return None
        if same_op(reached, store):
            found.append(o)
    return found


# --- Code the program as written never runs -------------------------------------------------

def never_runs(op: ir.Operation) -> Assumption | None:
    """A high-risk `loop-runs` speculation when `op` is in a function the program as written
    never runs: a function, or a method of a class with no library base, of a script (a
    file with an `if __name__ == "__main__":` block that no other file imports) whose name
    nothing reads but functions that never run themselves (an agent's training entry
    `agent.run()` left commented out in the main block for `agent.test()`)."""
    func = op if op.name == "host.func" else None
    parent = op.parent
    while parent is not None and parent.name != "host.module":
        if parent.name == "host.func":
            func = parent  # the outermost
        parent = parent.parent
    if func is None or parent is None or \
            not any(same_op(func, dead) for dead in _never_run(parent)):
        return None
    name = string_attr(func, "sym_name")
    return Assumption("loop-runs", f"`{name}`", "high", "speculated",
                      f"nothing the script runs calls `{name}`: its main block, and what "
                      f"that calls, never name it (a mode left switched off?)")


@per_run()
def _never_run(file: ir.Operation) -> tuple[ir.Operation, ...]:
    """The functions of the script `file` that never run (see `never_runs`); none when
    `file` is not a script, or reads names the analysis cannot see (`getattr(self, name)`,
    `eval`, `globals()`). Names are read, not resolved: a name that anything running reads
    keeps every function of that name running."""
    top = [o.operation for o in file.regions[0].blocks[0].operations]
    if not any(o.name == "host.if" and _tests_main(o) for o in top) or \
            len(autograd.sharing(file)) > 1:
        return ()
    candidates = [o for o in top if o.name == "host.func"]
    for cls in top:
        if cls.name == "host.class" and len(base_classes(cls)) == len(list(cls.operands)):
            candidates += [o.operation for o in cls.regions[0].blocks[0].operations
                           if o.operation.name == "host.func"]
    candidates = [f for f in candidates if not strings_attr(f, "harp.decorators") and
                  not string_attr(f, "sym_name").startswith("__")]
    names = {string_attr(f, "sym_name") for f in candidates}
    if not names:
        return ()
    everywhere, inside = _names_read(file, names), {}
    if everywhere is None:
        return ()
    for f in candidates:
        inside.setdefault(string_attr(f, "sym_name"), []).append(_names_read(f, names) or {})
    # a name read outside every candidate (module level, a library subclass's method)
    # runs; so does every name a running function reads
    counted = {n: sum(reads.get(n, 0) for per in inside.values() for reads in per)
               for n in names}
    live = [n for n in names if everywhere.get(n, 0) > counted[n]]
    if any(string_attr(o, "qualname").endswith("app.run") for o in walk(file)
           if o.name == "host.call") and "main" in names:
        live.append("main")  # `tf.app.run()` calls the script's `main` by convention
    running: set[str] = set()
    while live:
        name = live.pop()
        if name in running:
            continue
        running.add(name)
        live += [n for reads in inside.get(name, []) for n in reads]
    return tuple(f for f in candidates if string_attr(f, "sym_name") not in running)


def _tests_main(branch: ir.Operation) -> bool:
    """Whether `branch` is `if __name__ == "__main__":`."""
    test = producer(branch.operands[0])
    test = producer(test.operands[0]) if test is not None and test.name == "host.truth" \
        else test
    return test is not None and test.name == "host.compare" and any(
        (o := producer(v)) is not None and o.name == "host.load" and
        string_attr(o, "name") == "__name__" for v in test.operands)


def _names_read(region_op: ir.Operation, names: set[str]) -> dict[str, int] | None:
    """How often the code of `region_op` reads each of `names` (a load, an attribute, a
    string constant as in `getattr(self, "run")`); None when it reads names by values the
    analysis cannot see (`getattr(x, name)`, `eval`, `exec`, `globals()`, `locals()`)."""
    found: dict[str, int] = {}
    for o in walk(region_op):
        if o.name == "host.getattr":
            n = string_attr(o, "attr")
        elif o.name == "host.load":
            n = string_attr(o, "name")
            if n in ("eval", "exec", "globals", "locals", "vars") and \
                    string_attr(o, "scope") == "builtin":
                return None
            if n == "getattr" and string_attr(o, "scope") == "builtin" and any(
                    c.name == "host.call" and len(list(c.operands)) > 2 and
                    getattr(producer(c.operands[2]), "name", "") != "host.constant"
                    for c in (user(u) for u in o.result.uses)):
                return None
        elif o.name == "host.constant" and string_attr(o, "kind") == "str":
            n = string_attr(o, "value")
        else:
            continue
        if n in names:
            found[n] = found.get(n, 0) + 1
    return found
