"""--harp-unused-weight-gradients (HARP304): backward computes gradients for a model that
nothing trains.

Finds: a PyTorch module's forward whose output reaches `backward()` on every step of a hot
loop, when no optimizer of the program holds the module's parameters, the program never
turns their gradients off, never copies into them in a loop and never reads their
`.grad`: the loop optimises something else through a fixed (usually pretrained) network,
an input image, an adversarial example, a generator through a perceptual loss. Each
`backward()` then also computes, and accumulates into `.grad`, a gradient for every weight
of that module: for convolutions and linear layers about as much work as the gradient of
their input, and memory for a copy of the weights.

How: the module is identified by where it is made (`autograd.module_key`, through
attributes, parameters and `.to(device)`), the optimizers of the files that share it are
read (`autograd.optimized_modules`); its output is followed to a `backward()` through
def-use (`autograd.flow`); how often the forward runs comes from the call graph
(`callgraph.per_step`). `torch.autograd.grad(out, x)` computes only what it is asked for,
so it is not a backward here.

Assumes: nothing harp cannot see trains the module or reads its weight gradients (the
module is handed to no library call other than its forward; medium risk).
"""

from __future__ import annotations

import libcst as cst
from torch_mlir import ir

from harp_ir import autograd, callgraph, catalogue
from harp_ir.analysis import (
    Assumption,
    called_function,
    constant_value,
    enclosing_loop,
    host_module,
    loops_around,
    per_run,
    producer,
    record_hint,
    same_op,
    span,
    string_attr,
    user,
    walk,
)
from harp_ir.codemods import Decline, node_at, syntax, unproved
from harp_ir.rules import Fix, HintSpec, Rule

HINT = "HARP304"
#: library calls a module may be handed to without being trained or having its weight
#: gradients read
_HARMLESS = ("builtins.print", "builtins.isinstance", "builtins.len", "torch.save",
             "builtins.repr", "builtins.str")


def _loop_of(value):
    """The `host.for` whose loop variable `value` reads (`p` in `for p in ...:`), else
    None."""
    load = producer(value)
    if load is None or load.name != "host.load":
        return None
    name = string_attr(load, "name")
    for loop in loops_around(load):
        first = loop.regions[0].blocks[0].operations[0] if loop.name == "host.for" else None
        if first is not None and first.name == "host.store" and \
                string_attr(first, "name") == name:
            return loop
    return None


def _parameters_of(loop):
    """The module whose `.parameters()` (or `named_parameters()`) `loop` iterates, as its
    key; None when it iterates something else or an unknown module."""
    source = producer(loop.operands[0])
    while source is not None and source.name == "host.call" and \
            string_attr(source, "qualname") in ("builtins.list", "builtins.enumerate"):
        source = producer(source.operands[1]) if len(list(source.operands)) > 1 else None
    callee = producer(source.operands[0]) if source is not None and \
        source.name == "host.call" else None
    if callee is None or callee.name != "host.getattr" or \
            string_attr(callee, "attr") not in ("parameters", "named_parameters"):
        return None
    return autograd.module_key(callee.operands[0]) or "unknown"


def _gradient_settings(files) -> tuple[set, bool]:
    """The modules whose parameters the program freezes (`m.requires_grad_(False)`, `p.
    requires_grad = False` for `p` in `m.parameters()`) or whose `.grad` it reads or clips,
    and whether it does so somewhere this cannot attribute (then any module may be)."""
    keys, unknown = set(), False
    for op in (o for f in files for o in walk(f)):
        target = None
        if op.name == "host.call" and "clip_grad" in string_attr(op, "qualname"):
            unknown = True  # the norm of weight gradients is read
        elif op.name == "host.call" and string_attr(op, "method") == "requires_grad_" and \
                [constant_value(v) for v in list(op.operands)[1:]] == [False]:
            target = producer(op.operands[0]).operands[0]
        elif op.name == "host.setattr" and string_attr(op, "attr") == "requires_grad" and \
                constant_value(op.operands[1]) is False:
            target = op.operands[0]
        elif op.name == "host.getattr" and string_attr(op, "attr") == "grad":
            loop = _loop_of(op.operands[0])
            if loop is not None and _parameters_of(loop) is not None:
                keys.add(_parameters_of(loop))
            elif (owner := _parameter_owner(op.operands[0])) is not None:
                keys.add(owner)  # `conv.weight.grad`: a hand-written update reads it
        if target is None:
            continue
        loop = _loop_of(target)
        key = _parameters_of(loop) if loop is not None else autograd.module_key(target)
        if key is None or key == "unknown":
            unknown = True
        else:
            keys.add(key)
    return keys, unknown


def _parameter_owner(value) -> tuple | None:
    """The module whose parameter an attribute read names (`conv.weight`, `self.fc.bias`):
    the first object along the chain that is a module; None for anything else (an input
    image's `x`)."""
    op = producer(value)
    while op is not None and op.name == "host.getattr":
        key = autograd.module_key(op.operands[0])
        if key is not None:
            return key
        op = producer(op.operands[0])
    return None


def _freezes_itself(key: tuple) -> bool:
    """Whether the program's class of the module `key` turns its own parameters'
    gradients off where it is defined (`param.requires_grad = False` over
    `self.parameters()` in `__init__`, as a perceptual loss's VGG wrapper does), or those
    of a network it builds there (`vgg = nn.Sequential(...)`, then its parameters frozen
    and the network kept in `self.loss_network`): the class manages its gradients."""
    made = autograd.class_of(key)
    if made is None:
        return False
    settings = _file_settings(host_module(made))
    return ("class", made) in settings or any(
        frozen[0] == "site" and _inside(frozen[1], made) for frozen in settings)


def _inside(op, ancestor) -> bool:
    parent = op.parent
    while parent is not None and not same_op(parent, ancestor):
        parent = parent.parent
    return parent is not None


@per_run()
def _file_settings(file) -> set:
    return _gradient_settings((file,))[0] if file is not None else set()


def _depends(value, origin, tainted: set[str], depth: int = 0) -> bool:
    """Whether `value` is computed from `origin`'s result, directly or through names
    `tainted` (bound from it earlier in the loop)."""
    op = producer(value)
    if op is None or depth > 12:
        return False
    if op == origin:
        return True
    if op.name == "host.load":
        return string_attr(op, "name") in tainted
    known = catalogue.load()
    if op.name == "host.getattr" and string_attr(op, "attr") in known.detached_attributes:
        return False  # `.data`: no gradient flows through it
    if op.name == "host.call" and string_attr(op, "method") in known.detached_methods:
        return False  # `.detach()`, `.item()`
    return not op.regions and any(_depends(v, origin, tainted, depth + 1)
                                  for v in op.operands)


def _feeds_backward(origin) -> bool:
    """Whether `origin`'s output reaches a `backward()`: followed through def-use in its
    function, or, for a script's top-level loop (globals), through the names the loop
    binds from it before the backward."""
    flow = autograd.flow(origin.result)
    if "`backward()`" in flow.reaches:
        return True
    loop = enclosing_loop(origin)
    if loop is None or not flow.reaches:
        return False  # followed to its ends: it never reaches a backward
    tainted: set[str] = set()
    for op in walk(loop):
        if op.name == "host.store" and _depends(op.operands[0], origin, tainted):
            tainted.add(string_attr(op, "name"))
        elif op.name == "host.call" and string_attr(op, "method") == "backward":
            callee = producer(op.operands[0])
            if callee is not None and _depends(callee.operands[0], origin, tainted):
                return True
    return False


def _handed_away(key, files, forward) -> bool:
    """Whether the module is passed to a library call other than a harmless one (a
    trainer that may optimise it): what happens there is not visible."""
    for op in (o for f in files for o in walk(f)):
        if op.name != "host.call" or op == forward:
            continue
        if not any(autograd.module_key(v) == key for v in list(op.operands)[1:]):
            continue
        if called_function(op) is None and string_attr(op, "qualname") not in _HARMLESS:
            return True
    return False


def _set_in_loop(key, files) -> bool:
    """Whether the program copies into the module's weights (a target network's
    `load_state_dict` in a loop, a soft update): then it is a copy that other code trains."""
    return bool(autograd.written_by_hand(key, files[0], in_loop=True))


#: library modules without parameters (a loss, an activation): nothing to compute
_STATELESS = ("Loss", "ReLU", "Sigmoid", "Tanh", "Softmax", "LogSoftmax", "Dropout",
              "Flatten", "Identity", "MaxPool", "AvgPool", "Upsample", "GELU", "LeakyReLU",
              "CosineSimilarity", "PixelShuffle")


def _has_parameters(key, depth: int = 0) -> bool:
    """Whether the module `key` names has weights: a library layer that holds some, or a
    class of the program that builds one (a loss written as an `nn.Module` has none)."""
    if key[0] == "site" and autograd.class_of(key) is None:
        qualname = string_attr(key[1], "qualname")
        return qualname.startswith(("torch.nn.", "torchvision.models.")) and \
            not any(s in qualname.rsplit(".", 1)[-1] for s in _STATELESS)
    cls = autograd.class_of(key)
    if cls is None or depth > 3:
        return key[0] == "attr"  # an attribute made elsewhere: assume it has weights
    for op in walk(cls):
        if op.name != "host.call" or string_attr(op, "effect") != "construct":
            continue
        made = autograd.module_key(op.result)
        if string_attr(op, "qualname") in ("torch.nn.Parameter", "torch.nn.parameter.Parameter") \
                or made is not None and made != key and _has_parameters(made, depth + 1):
            return True
    return False


def _takes_a_gradient(loop) -> bool:
    """Whether the loop uses some gradient its backward computes: it steps an optimizer
    (in its body or a function it calls) or reads a `.grad`. A backward whose gradients
    nothing uses at all is wasted whole, a different problem: freezing the weights would
    leave it nothing to differentiate."""
    return any(string_attr(site, "method") == "step"
               for site in callgraph.training_sites(loop)) or \
        any(o.name == "host.getattr" and string_attr(o, "attr") == "grad" for o in walk(loop))


def _reported(op) -> bool:
    """Whether HARP303 already reports this forward, or the forward its output feeds (a
    target network's, whose inputs carry no gradient: then no_grad saves the whole graph,
    weights' gradients included)."""
    users = [u.owner.operation if hasattr(u.owner, "operation") else u.owner
             for u in op.result.uses]
    return any("harp.hints" in o.attributes and any(
        ir.StringAttr(ir.DictAttr(h)["id"]).value == "HARP303"
        for h in ir.ArrayAttr(o.attributes["harp.hints"])) for o in [op, *users])


def run(module, pass_=None) -> None:
    done: set = set()
    # a file -> (files sharing its modules, modules whose gradients it settles, modules
    # optimizers hold or None, the same or None when it settles some out of sight)
    known: dict = {}
    for origin in walk(module):
        if not (autograd.calls_module(origin) or autograd.calls_made_module(origin)) or \
                autograd.grad_disabled(origin) or autograd.calls_loss(origin) or _reported(origin):
            continue
        file = host_module(origin)
        key = autograd.module_key(origin.operands[0])
        if file is None or key is None:
            continue
        if file not in known:
            files = autograd.sharing(file)
            settled, unknown = _gradient_settings(files)
            trained = autograd.optimized_modules(file, tensors_alone=True)
            known[file] = (files, settled, trained, None if unknown else trained)
        files, settled, trained, optimized = known[file]
        if trained is not None and autograd.trains(key, trained):
            _report_cleared(origin, key, trained, done)  # it asks about clips itself
            continue
        if optimized is None or key in settled or _freezes_itself(key) or \
                not _has_parameters(key) or not _feeds_backward(origin):
            continue
        ctx = callgraph.per_step(origin, callgraph.training_work)
        if ctx is None or (key, ctx.loop) in done or not _takes_a_gradient(ctx.loop) or \
                _set_in_loop(key, files) or _handed_away(key, files, origin):
            continue
        done.add((key, ctx.loop))
        what = autograd.forward_text(origin)
        message = (f"{what} feeds a `backward()` {ctx.phrase(origin)}, but no optimizer holds "
                   f"the module's parameters and nothing reads their gradients: each "
                   f"backward also computes a gradient for every weight of it; turn them off "
                   f"once before the loop (`.requires_grad_(False)` on the module)")
        assumptions = [Assumption(
            "weights-unused", what, "medium", "speculated",
            "no optimizer of the program holds its parameters, the program never turns "
            "gradients off, copies into them in a loop or reads their `.grad`, and hands "
            "the module to no library call but its forward")]
        assumptions += ctx.frequency_assumptions()
        record_hint(origin, HINT, message, assumptions, related=[ctx.site])


# --- The gradients of a trained module, cleared before anything uses them -------------
#
# A GAN's discriminator step backpropagates `D(G(z))` through the generator: the
# generator's weights are trained, but its own optimizer's `zero_grad()` clears what this
# backward gave them before any step reads it. Detaching the generator's output where the
# discriminator step takes it gives the same updates without that backward.


def _report_cleared(origin, key, optimized, done: set) -> None:
    """Report the forward `origin` of the trained module `key` when its output reaches one
    `backward()` only, its inputs carry no gradient anyone wants, and after that backward
    every path clears the module's gradients before anything uses them
    (`autograd.gradients_cleared`)."""
    found = autograd.gradients_cleared(origin, key, optimized)
    if found is None:
        return
    backward, clear = found
    ctx = callgraph.per_step(origin, callgraph.training_work)
    if ctx is None or (key, origin) in done:
        return
    done.add((key, origin))
    what = autograd.forward_text(origin)
    loss = string_attr(backward, "harp.receiver") or "the loss"
    clear_text = string_attr(clear, "harp.receiver") or "the module"
    at = span(backward.location)
    cleared_at = span(clear.location)
    taker = _taken_by(origin)
    taker_at = span(taker.location) if taker is not None else None
    taken = (f" (or where {autograd.forward_text(taker)} takes it, line {taker_at.line})"
             if taker_at else "")
    message = (f"the output of {what} reaches only `{loss}.backward()`"
               f"{f' (line {at.line})' if at else ''}, and "
               f"`{clear_text}.zero_grad()`{f' (line {cleared_at.line})' if cleared_at else ''}"
               f" clears the gradients that backward gives the module's weights before "
               f"anything uses them; it runs {ctx.phrase(origin)}: each of those backward "
               f"passes also runs back through the module for nothing; `.detach()` its "
               f"output here{taken}")
    assumptions = [Assumption(
        "weights-unused", what, "low", "proved",
        f"its output reaches `{loss}.backward()` alone, and every path after that backward "
        f"clears the module's gradients (`{clear_text}.zero_grad()`) before an optimizer "
        f"that holds them steps or anything reads them"),
        Assumption("inputs-gradient-free", what, "low", "proved",
                   "its inputs are built from data, constants and fresh draws: they carry "
                   "no gradient towards a trained parameter")]
    assumptions += ctx.frequency_assumptions()
    record_hint(origin, HINT, message, assumptions,
                related=[ctx.site, backward, clear, *([taker] if taker_at else [])])


def _taken_by(origin):
    """The call that first takes the forward's output, bound by `G_ = self.G(z_)`, where
    the discriminator step reads the name (`self.D(G_)`): where `.detach()` also fits."""
    loads = autograd.loads_reading(user(next(iter(origin.result.uses))), scripts=True)
    if not loads:
        return None
    return next((user(u) for u in loads[0].result.uses if user(u).name == "host.call"), None)


def fix_unused_weight_gradients(module, positions, hint):
    """`MODULE.requires_grad_(False)` before the outermost loop of the function that runs
    the forward: the module's weights stop taking gradients; every input's gradient is
    computed as before. Safe when the backward still has a tensor that wants a gradient
    through this forward: an argument of the forward reads a name whose `.grad` the loop
    reads, or that an optimizer the loop steps holds (`SGD([image])`, `image` passed in)."""
    call = node_at(positions, hint.span, cst.Call)
    parents = syntax.parents(module)
    if any(a.kind == "inputs-gradient-free" for a in hint.assumptions):
        return _detach(module, call, parents)
    base = call.func
    while isinstance(base, cst.Attribute):
        base = base.value
    if not isinstance(base, cst.Name):
        raise Decline("the module is not a name or an attribute of one")
    loop = syntax.enclosing_loop(call, parents)
    while True:
        try:
            loop = syntax.enclosing_loop(loop, parents)
        except Decline:
            break
    if base.value in syntax.loop_writes(loop):
        raise Decline(f"the loop rebinds `{base.value}`")
    inputs = syntax.names(list(call.args)).loaded
    if not inputs & (_grad_read(loop) | _optimized_names(module, loop, parents)):
        unproved("the backward still has a tensor that wants a gradient through this "
                 "forward (an input the loop optimises): otherwise it would have none")
    module_text = cst.Module([]).code_for_node(call.func)
    freeze = cst.parse_statement(f"{module_text}.requires_grad_(False)\n")
    stmt, _ = syntax.statement_of(loop, parents)
    freeze = freeze.with_changes(leading_lines=stmt.leading_lines)
    return module.deep_replace(stmt, cst.FlattenSentinel(
        [freeze, stmt.with_changes(leading_lines=[])]))


def _detach(module, call, parents):
    """`G_ = self.G(z_)` becomes `G_ = self.G(z_).detach()`: what the name holds is the
    same tensor without its history, so the one backward it reaches stops at it. The hint
    has proved the rest: its inputs carry no gradient, so nothing but the module's
    weight gradients, which are cleared before use, is lost."""
    statement = parents.get(call)
    if not (isinstance(statement, cst.Assign) and statement.value is call):
        raise Decline("the forward is not the whole value of an assignment")
    detached = cst.Call(func=cst.Attribute(value=call, attr=cst.Name("detach")))
    return module.deep_replace(call, detached)


def _grad_read(loop) -> set[str]:
    """The names whose `.grad` the loop reads (`x.grad.sign()`)."""
    return {n.value.value for n in syntax.walk(loop) if isinstance(n, cst.Attribute) and
            n.attr.value == "grad" and isinstance(n.value, cst.Name)}


def _optimized_names(module, loop, parents) -> set[str]:
    """The names in the list of an optimizer the loop steps (`opt = SGD([image])`,
    `opt.step()` in the loop), from assignments in the loop's function or module."""
    stepped = {n.func.value.value for n in syntax.walk(loop) if isinstance(n, cst.Call) and
               isinstance(n.func, cst.Attribute) and n.func.attr.value == "step" and
               isinstance(n.func.value, cst.Name)}
    scope = loop
    while scope in parents and not isinstance(scope, (cst.FunctionDef, cst.Module)):
        scope = parents[scope]
    found: set[str] = set()
    for node in syntax.walk(scope):
        if isinstance(node, cst.Assign) and isinstance(node.value, cst.Call) and \
                node.value.args and isinstance(node.value.args[0].value, (cst.List, cst.Tuple)) \
                and any(syntax.bound_names(t.target) & stepped for t in node.targets):
            found |= {e.value.value for e in node.value.args[0].value.elements
                      if isinstance(e.value, cst.Name)}
    return found


RULE = Rule(
    flag="harp-unused-weight-gradients",
    summary="Find backward passes through a model whose weight gradients nothing uses "
            "(HARP304)",
    run=run,
    hint=HintSpec(
        id=HINT,
        name="unused-weight-gradients",
        finds="a backward pass, on every step of a loop, through a PyTorch module whose "
              "weight gradients nothing uses: a module no optimizer holds and whose gradients "
              "nothing reads (an input or a generator optimised through a fixed network), or "
              "a trained module whose gradients from this backward are cleared "
              "(`zero_grad()`) before any step uses them (a GAN's discriminator step run "
              "back through the generator)",
        why="backward computes and accumulates a gradient for every weight of the module: "
            "for convolutions and linear layers about as much work as the input's gradient, "
            "and memory for a copy of the weights, all unused; through a trained generator, "
            "the whole backward pass through it is wasted",
        refactoring="turn the module's gradients off once before the loop "
                    "(`model.requires_grad_(False)`); detach a trained module's output where "
                    "the backward that wastes them takes it (`fake = G(z).detach()`)",
        before="net = models.vgg16(pretrained=True)\n"
               "for i in range(steps):\n"
               "    loss = -net(image)[0, c]\n"
               "    loss.backward()\n"
               "    opt.step()  # opt holds only `image`\n",
        after="net = models.vgg16(pretrained=True).requires_grad_(False)\n"
              "for i in range(steps):\n"
              "    loss = -net(image)[0, c]\n"
              "    loss.backward()\n"
              "    opt.step()\n",
        assumptions=("weights-unused", "inputs-gradient-free", "loop-runs", "hot-loop",
                     "every-iteration"),
    ),
    fix=Fix(
        apply=fix_unused_weight_gradients,
        summary="safe when the loop optimises an input of the forward, else unsafe; for a "
                "trained module whose gradients are cleared, safe",
        rewrite="`MODULE.requires_grad_(False)` before the outermost loop of the function "
                "that runs the forward (safe when an argument of the forward is a tensor "
                "whose `.grad` the loop reads or that an optimizer the loop steps holds; "
                "otherwise `--unsafe-fixes`: the backward could be left with nothing that "
                "wants a gradient); a trained module's forward whose gradients are cleared "
                "before use gets `.detach()` on its output (`G_ = self.G(z_).detach()`)",
        declines="the module is not a name or an attribute of one, or the loop rebinds it; "
                 "the forward is not the whole value of an assignment",
    ),
)
