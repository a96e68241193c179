"""--harp-redundant-call (HARP302): the same pure graph computation evaluated twice with
the same inputs.

Finds: two pure calls returning tensors, in the same block, with the same callee and
structurally equal arguments (the same slots, not written in between, the same constants,
the same pure sub-expressions). Any write to an involved slot, or a call that may mutate
(effect mutate or unknown), in between ends the match.

A model (an `nn.Module` subclass of the program, or an `nn.Sequential` of library layers)
called twice in one block on the same input is the same: when its layers are deterministic
(no dropout, no batch norm, no instance norm that tracks statistics), its `forward` only
computes, and nothing between the calls can change the model, its parameters or the input
(its optimizer's step, an in-place method, a function of the program, a call handed a
model), on a step of a loop that trains. Another model's forward and optimizer step,
`zero_grad()` and a `backward()` leave it as it was: a GAN's discriminator step between
two forwards of its generator on the same noise. A backward in between consumed the first
result's graph, so that case is reported only when the first result's gradients for the
model are cleared before use (HARP304's GAN case): detached there, it serves both steps.

Only computations worth a variable are reported: matrix products, convolutions, linear
algebra, distances and reductions over whole tensors (`_COSTLY`); an element-wise op or a
view (`x.t()`, `y.view_as(x)`) costs about as much as reading a saved result.

Assumes: the computation is pure (from the API catalogue) and no argument is changed
through an alias between the two calls.
"""

from __future__ import annotations

import re

from harp_ir import autograd, callgraph, catalogue
from harp_ir.analysis import (
    Assumption,
    base_classes,
    call_arguments,
    called_function,
    class_methods,
    constant_value,
    host_module,
    instance_class,
    per_run,
    producer,
    receiver,
    record_hint,
    same_op,
    span,
    string_attr,
    value_kind,
    value_name,
    walk,
)
from harp_ir.rules import HintSpec, Rule

HINT = "HARP302"
#: the last part of a qualname (torch.matmul, tensorflow.linalg.inv...) that makes a call
#: costly enough to be worth reusing
_COSTLY = re.compile(r"(^|\.)(matmul|mm|bmm|einsum|tensordot|conv\w*|cdist|inv\w*|solve|"
                     r"svd|eig\w*|cholesky|qr|det|pinv|fft\w*|norm|softmax|log_softmax|"
                     r"logsumexp)$")


def _costly(op) -> bool:
    name = string_attr(op, "qualname")
    return bool(_COSTLY.search(name)) or ".linalg." in name


def _key(value, depth=0):
    """A structural key for a value, or None when it may differ between evaluations."""
    owner = value.owner
    if depth > 8 or not hasattr(owner, "operation"):
        return None
    op = owner.operation
    if op.name == "host.load":
        return ("load", string_attr(op, "name"))
    if op.name == "host.constant":
        return ("const", str(op.attributes["value"]))
    if op.name == "host.getattr":
        inner = _key(op.operands[0], depth + 1)
        return None if inner is None else ("attr", inner, string_attr(op, "attr"))
    if op.name in ("host.getitem", "host.slice"):  # `s[index]`: a read of its slots
        parts = [_key(v, depth + 1) for v in op.operands]
        return None if None in parts else (op.name, tuple(parts))
    if op.name in ("host.binop", "host.unop", "host.tuple", "host.list") or (
            op.name == "host.call" and string_attr(op, "effect") == "pure"):
        parts = [_key(v, depth + 1) for v in op.operands]
        if None in parts:
            return None
        tag = string_attr(op, "qualname") or string_attr(op, "op") or op.name
        return (op.name, tag, str(op.attributes["kwnames"]) if "kwnames" in op.attributes
                else "", tuple(parts))
    return None


def _slots(key, out):
    if isinstance(key, tuple):
        if key[:1] == ("load",):
            out.add(key[1])
        for part in key:
            _slots(part, out)
    return out


def _has_tensor_input(op) -> bool:
    """Some argument, or the receiver of a method call, is a tensor."""
    inputs = list(op.operands)[1:]
    callee = op.operands[0].owner
    if hasattr(callee, "operation") and callee.operation.name == "host.getattr":
        inputs.append(callee.operation.operands[0])
    return any(value_kind(v) == "tensor" for v in inputs)


def _check_block(block):
    seen: dict = {}
    repeats = []
    for child in block.operations:
        op = child.operation
        if op.name == "host.store":
            name = string_attr(op, "name")
            seen = {k: v for k, v in seen.items() if name not in _slots(k, set())}
        elif op.name == "host.call" and string_attr(op, "effect", "unknown") in (
                "mutate", "unknown", "io", "random"):
            seen = {}
        elif op.regions:
            seen = {}  # a nested block may write anything; stay simple
        if op.name == "host.call" and string_attr(op, "effect") == "pure" and \
                string_attr(op, "harp.kind") == "tensor" and _has_tensor_input(op):
            key = _key(op.result)
            if key is None:
                continue
            if key in seen:
                repeats.append((op, seen[key]))
            else:
                where = span(op.location)
                seen[key] = where.line if where else "?"
    repeated = [op for op, _ in repeats]
    for op, first in repeats:
        if any(use.owner.operation == other for use in op.result.uses for other in repeated):
            continue  # part of a larger repeated computation: report that one
        if not _costly(op):
            continue
        message = (f"`{string_attr(op, 'qualname') or 'this computation'}` with the same "
                   f"inputs was already computed at line {first}; reuse that result instead "
                   f"of evaluating it again")
        record_hint(op, HINT, message, [
            Assumption("pure", string_attr(op, "qualname"), "low", "proved",
                       "the API catalogue marks it pure"),
            Assumption("no-alias", "", "medium", "speculated",
                       "no input is changed through another name in between"),
        ])


#: `torch.nn` layers whose forward is a function of its input and parameters alone: no
#: randomness (dropout), no state a call updates (batch norm's running statistics)
_DETERMINISTIC_LAYERS = frozenset(f"torch.nn.{n}" for n in (
    "Linear", "Bilinear", "Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d",
    "ConvTranspose3d", "ReLU", "ReLU6", "LeakyReLU", "ELU", "SELU", "GELU", "SiLU", "Tanh",
    "Sigmoid", "Softplus", "Softmax", "LogSoftmax", "Flatten", "Unflatten", "Identity",
    "MaxPool1d", "MaxPool2d", "MaxPool3d", "AvgPool1d", "AvgPool2d", "AvgPool3d",
    "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveMaxPool2d", "Embedding", "LayerNorm",
    "GroupNorm", "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d", "ReflectionPad1d",
    "ReflectionPad2d", "ReplicationPad1d", "ReplicationPad2d", "ZeroPad2d", "ConstantPad1d",
    "ConstantPad2d", "Upsample", "UpsamplingNearest2d", "UpsamplingBilinear2d",
    "PixelShuffle", "PReLU", "Hardtanh", "Sequential", "ModuleList"))
#: layers that keep running statistics when asked to (`track_running_stats=True`)
_TRACKS_WHEN_ASKED = ("torch.nn.InstanceNorm1d", "torch.nn.InstanceNorm2d",
                      "torch.nn.InstanceNorm3d")
#: methods that change a model's parameters, a tensor in place, or the graph a forward's
#: result belongs to (`backward` frees it): the catalogue's mutating methods of these classes
_CHANGES_MODELS = catalogue.load().mutating_methods("torch.Tensor", "torch.optim.Optimizer",
                                                    "torch.nn.Module")


@per_run()
def _deterministic(cls, depth: int = 0) -> bool:
    """Whether calling an instance of the program's module class `cls` is a function of
    its input and parameters alone: every `torch.nn` layer its `__init__` builds is in
    `_DETERMINISTIC_LAYERS` (or a program class that is so), and its `forward`, with the
    methods of the class it calls, draws no random numbers, does no I/O, changes nothing
    and calls nothing unknown but its layers."""
    chain = _class_chain(cls) if cls is not None else []
    methods = {name: m for c in reversed(chain) for name, m in class_methods(c).items()}
    if depth > 3 or "forward" not in methods:
        return False
    inits = [class_methods(c)["__init__"] for c in chain if "__init__" in class_methods(c)]
    for op in (o for init in inits for o in walk(init)):  # every module any of them holds
        if op.name == "host.setattr" and value_kind(op.operands[1]) == "module" and \
                not _deterministic_layer(producer(op.operands[1]), chain, depth):
            return False  # a module it was given (`self.encoder = encoder`), or unknown
        if op.name == "host.call" and _builds_module(op) and \
                not _deterministic_layer(op, chain, depth):
            return False  # `nn.Dropout`, `nn.BatchNorm2d`, `torchvision.models.resnet18()`
    return _pure_method(methods["forward"], chain, set())


def _builds_module(call) -> bool:
    """Whether `call` constructs a module: a class of a library (`nn.Dropout(0.1)`, a
    capitalised name) or what the catalogue says constructs one (`resnet18()`), or a
    class of the program; not a method of a model (`self.apply(init)`)."""
    qualname = string_attr(call, "qualname")
    return qualname.rsplit(".", 1)[-1][:1].isupper() or \
        string_attr(call, "effect") == "construct" and \
        string_attr(call, "harp.kind") == "module" or \
        instance_class(call.result, call) is not None


def _deterministic_layer(made, chain, depth: int) -> bool:
    """Whether the op `made` builds a module that computes deterministically: a layer of
    `_DETERMINISTIC_LAYERS`, or a module class of the program that is so (not a layer
    from elsewhere, not one handed in); a `torch.nn` call that builds no module
    (`nn.init.xavier_uniform_`, `nn.Parameter`) is none of these and passes."""
    if made is None or made.name != "host.call":
        return False
    qualname = string_attr(made, "qualname")
    if qualname in _DETERMINISTIC_LAYERS:
        return _keeps_no_statistics(made)
    cls = instance_class(made.result, made)
    if cls is not None:
        return cls in chain or _deterministic(cls, depth + 1)
    builds_layer = qualname.startswith("torch.nn.") and qualname.count(".") == 2 and \
        qualname[9:10].isupper() and qualname != "torch.nn.Parameter"
    return not builds_layer and string_attr(made, "harp.kind") != "module"


def _keeps_no_statistics(made) -> bool:
    """An instance norm keeps running statistics only when `track_running_stats` is set
    (then every training forward updates them, as batch norm does)."""
    if string_attr(made, "qualname") not in _TRACKS_WHEN_ASKED:
        return True
    args = call_arguments(made)
    return sum(1 for k, _ in args if k == "") < 5 and all(
        constant_value(v) is False for k, v in args if k in ("track_running_stats", "**", "*"))


def _built_deterministic(made, depth: int = 0) -> bool:
    """Whether a library construction call (`nn.Sequential(nn.Linear(64, 256), nn.ReLU(),
    ...)`) builds a module that computes deterministically: a layer of
    `_DETERMINISTIC_LAYERS` whose module arguments are built so too (a list of layers
    passed whole, `nn.Sequential(*layers)`, is not read)."""
    if made is None or made.name != "host.call" or depth > 6 or \
            string_attr(made, "qualname") not in _DETERMINISTIC_LAYERS or \
            not _keeps_no_statistics(made):
        return False
    container = string_attr(made, "qualname") in ("torch.nn.Sequential", "torch.nn.ModuleList")
    for keyword, value in call_arguments(made):
        if keyword == "*" or keyword == "**":
            return False
        if (container or value_kind(value) == "module") and \
                not _built_deterministic(producer(value), depth + 1):
            return False  # a layer made elsewhere, or of a kind not known here
    return True


def _class_chain(cls, depth: int = 0) -> list:
    """`cls` and the program classes it derives from, nearest first (what `self.m()`
    may run: a subclass's own methods, else its bases')."""
    found = [cls]
    for base in base_classes(cls) if depth < 4 else []:
        found += [c for c in _class_chain(base, depth + 1) if c not in found]
    return found


def _pure_method(method, chain, visiting: set) -> bool:
    """Whether running `method` only computes: its calls are pure, its layers', or
    methods of the classes in `chain` that are so in turn."""
    if method in visiting:
        return True
    visiting.add(method)
    for op in walk(method):
        if op.name in ("host.setattr", "host.setitem", "host.delitem"):
            return False
        if op.name != "host.call":
            continue
        own = called_function(op)
        if own is not None and own.parent is not None and \
                any(same_op(own.parent, c) for c in chain):
            if not _pure_method(own, chain, visiting):
                return False
            continue
        effect = string_attr(op, "effect", "unknown")
        if effect in ("random", "io", "mutate") or effect == "unknown" and \
                value_kind(op.operands[0]) != "module":
            return False
    return True


def _changes_models(op) -> bool:
    """Whether a call between two forwards may change what the second computes: an
    optimizer's step, a backward (it frees the first result's graph), a model's or a
    tensor's in-place method, a function of the program (it may do any of these), or a
    call handed a model or an optimizer."""
    if string_attr(op, "method") in _CHANGES_MODELS or called_function(op) is not None:
        return True
    handed = [*list(op.operands)[1:], *([receiver(op)] if receiver(op) is not None else [])]
    return any(value_kind(v) in ("module", "optimizer") for v in handed)


def _module_call_key(op):
    """The callee and inputs of a call of a module whose forward is deterministic, as a
    structural key, else None."""
    callee = op.operands[0]
    if value_kind(callee) != "module" and not autograd.calls_made_module(op):
        return None  # `model(x)`, `self.net(x)`, a model handed in (`G(z)` in `train(G)`)
    cls = instance_class(callee, op)
    if cls is not None and not _deterministic(cls):
        return None
    if cls is None:  # `G = nn.Sequential(...)`, or a model handed in: where it is made
        key = autograd.module_key(callee)
        made = key[1] if key is not None and key[0] == "site" else None
        made_class = instance_class(made.result, made) if made is not None else None
        if made is None or not (_deterministic(made_class) if made_class is not None
                                else _built_deterministic(made)):
            return None
    parts = [_key(v) for v in op.operands]
    if None in parts:
        return None
    return (tuple(parts), str(op.attributes["kwnames"]) if "kwnames" in op.attributes else "")


def _keeps_model(op, first) -> bool:
    """Whether the call `op`, between two forwards of the model `first` calls, leaves
    what the second computes unchanged though it changes models or gradients: a
    `zero_grad()`, a `backward()` (it changes gradients, not weights), another model's
    forward, an optimizer's `step()` when that optimizer holds parameters of other modules
    only (a GAN's discriminator step between two forwards of its generator)."""
    method = string_attr(op, "method")
    if method in ("zero_grad", "backward"):
        return True
    key = autograd.module_key(first.operands[0])
    if value_kind(op.operands[0]) == "module":  # another model's forward (`D(fake)`)
        other = autograd.module_key(op.operands[0])
        return key is not None and other is not None and other != key and \
            not any(value_kind(v) == "module" for v in list(op.operands)[1:])
    of = receiver(op)
    if method != "step" or of is None:
        return False
    made = autograd.optimizer_made(of)
    held = autograd.held_by(made) if made is not None else None
    return held is not None and key is not None and not autograd.trains(key, held)


def _cut(first, backwards) -> bool:
    """Whether the one backward between two forwards takes the first result only where
    its gradients for the model are cleared before use (HARP304's GAN case)."""
    key = autograd.module_key(first.operands[0])
    file = host_module(first)
    optimized = autograd.optimized_modules(file, tensors_alone=True) if file else None
    found = autograd.gradients_cleared(first, key, optimized) \
        if key is not None and optimized is not None else None
    return found is not None and len(backwards) == 1 and same_op(found[0], backwards[0])


def _check_forwards(block):
    """A model called twice in one block on the same input, nothing in between that can
    change the model, its parameters or the input: the second forward (and its part of
    the backward) repeats work whose result is at hand. A backward in between (a GAN's
    discriminator step taking the generator's output) is reported only when the first
    result's path into it can be cut: it reaches that backward alone, and the module's
    gradients from it are cleared before any use (`autograd.gradients_cleared`), so the
    fix detaches it there and keeps it for the second use."""
    seen: dict = {}  # key -> (the first call, the backward calls met since)
    for child in block.operations:
        op = child.operation
        key = _module_call_key(op) if op.name == "host.call" else None
        if op.name == "host.store":
            name = string_attr(op, "name")
            seen = {k: v for k, v in seen.items() if name not in _slots(k, set())}
        elif op.name in ("host.setattr", "host.setitem", "host.delitem") or op.regions:
            seen = {}
        elif op.name == "host.call" and key is None and _changes_models(op):
            seen = {k: (first, backwards + [op] * (string_attr(op, "method") == "backward"))
                    for k, (first, backwards) in seen.items() if _keeps_model(op, first)}
        if key is None:
            continue
        if key not in seen:
            seen[key] = (op, [])
            continue
        first, backwards = seen[key]
        ctx = callgraph.per_step(op, callgraph.training_work)
        if ctx is None or backwards and not _cut(first, backwards):
            continue
        where = span(first.location)
        line = where.line if where else "?"
        name = value_name(op.operands[0])
        if backwards:
            at = span(backwards[0].location)
            stored = [u.owner for u in first.result.uses if u.owner.name == "host.store"]
            kept = string_attr(stored[0], "name") if stored else "the first result"
            message = (f"`{name or 'the model'}(...)` runs the model's forward again on the "
                       f"same input as line {line}, {ctx.phrase(op)}, and only other models' "
                       f"optimizer steps run in between: keep `{kept}`, give the step whose "
                       f"backward is at line {at.line if at else '?'} `{kept}.detach()` (its "
                       f"gradients for this model are cleared before use) and use `{kept}` "
                       f"here, with its graph (where HARP304's fix bound it detached, move "
                       f"that `.detach()` to the other step's use): one forward and one "
                       f"backward through the model less per step")
        else:
            message = (f"`{name or 'the model'}(...)` runs the model's forward again on the "
                       f"same input as line {line}, {ctx.phrase(op)}, and nothing in between "
                       f"changes the model or the input: the forward, and its share of the "
                       f"backward, run twice; call it once and use the result for both")
        record_hint(op, HINT, message, [
            Assumption("pure", name or "the model", "low", "proved",
                       "its layers are deterministic (no dropout, no batch norm) and its "
                       "methods draw no random numbers and keep no state"),
            Assumption("no-alias", "", "medium", "speculated",
                       "no input is changed through another name in between"),
            *ctx.frequency_assumptions(),
        ], related=[first, *backwards])


def run(module, pass_=None) -> None:
    for op in [module, *walk(module)]:
        for region in op.regions:
            for block in region.blocks:
                _check_block(block)
                _check_forwards(block)


RULE = Rule(
    flag="harp-redundant-call",
    summary="Find the same pure computation evaluated twice (HARP302)",
    run=run,
    hint=HintSpec(
        id="HARP302",
        name="redundant-graph-call",
        finds="the same pure graph computation with the same inputs evaluated twice, or a "
              "model whose layers are deterministic called twice on the same input in one "
              "step (`net(s)[0]`, then `net(s)[1]`) with nothing in between that changes the "
              "model or the input, a GAN's generator run again for its own step after the "
              "discriminator's included",
        why="the second evaluation repeats work whose result is already at hand",
        refactoring="reuse the result",
        before="a = torch.matmul(x, w)\n"
               "b = torch.matmul(x, w) + 1\n",
        after="a = torch.matmul(x, w)\n"
              "b = a + 1\n",
        assumptions=("tensor", "pure", "no-alias"),
    ),
)
