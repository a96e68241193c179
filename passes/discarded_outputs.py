"""--harp-discarded-outputs (HARP305): a model's outputs computed by a network the caller
throws away.

Finds: a call of a model of the program (an `nn.Module` subclass whose `forward` returns
a tuple, `return recon, mu, logsigma`) on a step of a training loop, where the caller
keeps only some of the outputs (`_, mu, _ = vae(x)`, `vae(x)[1:]`, `model(x)[0]`) and
what the discarded ones alone need includes a whole network of the model: a call of a
sub-module that is itself a model of the program or an `nn.Sequential` (a VAE's decoder
run to encode frames), holding at least three weighted layers (`catalogue.weighted_layers`:
linear, convolution, recurrent, attention) and at least half as many as the networks the
kept outputs need. The values the kept outputs need are never dropped; only what nothing
else of the forward reads is. A head (a linear layer, an actor-critic's two-layer actor or
value head beside a shared body) is not reported: it costs a small share of the step.

Assumes: the discarded network is a noticeable share of the model's work (a decoder
beside its encoder); running it changes no state the program reads later (batch-norm
statistics in training mode); and, when the dropped part draws random numbers (a VAE's
reparameterisation noise), that the program does not rely on the exact numbers drawn.
"""

from __future__ import annotations

from harp_ir import callgraph, catalogue
from harp_ir.analysis import (
    Assumption,
    called_functions,
    constant_value,
    constructed_class,
    enclosing_scope,
    holds,
    in_other_file,
    instance_class,
    model_forward,
    module_class,
    producer,
    reaching_store,
    record_hint,
    same_op,
    self_attribute_stores,
    span,
    string_attr,
    user,
    walk,
)
from harp_ir.autograd import forward_text
from harp_ir.rules import HintSpec, Rule

HINT = "HARP305"


def run(module, pass_=None) -> None:
    for call in walk(module):
        if call.name != "host.call" or len(call.results) != 1 or not _picked(call):
            continue
        forward = next((f for f in called_functions(call) if model_forward(f)), None)
        returned = _returned_tuple(forward) if forward is not None else None
        if returned is None:
            continue
        kept = _kept_outputs(call, len(returned))
        if kept is None or len(kept) == len(returned):
            continue
        dropped = [i for i in range(len(returned)) if i not in kept]
        keep_ops = _slice([returned[i] for i in kept], forward)
        alone = [op for op in _slice([returned[i] for i in dropped], forward)
                 if op not in keep_ops]
        networks = [op for op in alone if op.name == "host.call" and _network(op)]
        dropped_weight = sum(_weight(op) for op in networks)
        kept_weight = sum(_weight(op) for op in keep_ops
                          if op.name == "host.call" and _network(op))
        if dropped_weight < _LAYERS or 2 * dropped_weight < kept_weight:
            continue  # a head beside the network it follows: a small share
        ctx = callgraph.per_step(call, callgraph.training_work)
        if ctx is None:
            continue
        _report(call, forward, ctx, [(i, returned[i]) for i in dropped], networks[0], alone)


def _returned_tuple(forward) -> list | None:
    """The values `forward` returns as a tuple at its one `return`, in its own body."""
    returns = [r for r in walk(forward) if r.name == "hostcf.return" and
               same_op(enclosing_scope(r), forward)]
    if len(returns) != 1 or not returns[0].operands:
        return None
    made = producer(returns[0].operands[0])
    if made is None or made.name != "host.tuple" or len(made.operands) < 2:
        return None
    return list(made.operands)


def _picked(call) -> bool:
    """Whether the call's one use unpacks its result or indexes it (checked first: most
    calls are used whole)."""
    uses = list(call.result.uses)
    return len(uses) == 1 and user(uses[0]).name in ("host.unpack", "host.getitem")


def _kept_outputs(call, count: int) -> set[int] | None:
    """The positions of the outputs the caller uses: unpacked into names it reads
    (`_, mu, _ = vae(x)`), or picked by a constant index or slice (`vae(x)[1:]`); None
    when the result is used whole or in a way not followed."""
    uses = [user(u) for u in call.result.uses]
    if len(uses) != 1:
        return None
    use = uses[0]
    if use.name == "host.unpack" and len(use.results) == count:
        return {i for i, r in enumerate(use.results) if _read(r, use)}
    if use.name != "host.getitem":
        return None
    index = producer(use.operands[1])
    if index is None:
        return None
    if index.name == "host.constant" and isinstance(constant_value(index.result), int):
        return {constant_value(index.result) % count}
    if index.name == "host.slice":
        bounds = [constant_value(v) for v in index.operands]
        if not all(b is None or isinstance(b, int) for b in bounds):
            return None
        return set(range(count)[slice(*bounds)])
    return None


def _read(value, unpack) -> bool:
    """Whether the unpacked `value` is read: stored to a name that the scope loads."""
    uses = [user(u) for u in value.uses]
    if any(u.name != "host.store" for u in uses):
        return True
    scope = enclosing_scope(unpack)
    names = {string_attr(u, "name") for u in uses}
    return any(o.name == "host.load" and string_attr(o, "name") in names
               for o in walk(scope))


def _slice(values, forward) -> set:
    """The ops of `forward` that computing `values` runs, through its local names (every
    store of a name the computation loads); `self` and names bound outside are left."""
    found, todo = set(), list(values)
    while todo:
        op = producer(todo.pop())
        if op is None or op in found or not holds(forward, op):
            continue
        found.add(op)
        if op.name == "host.load":
            store = reaching_store(op)
            stores = [store] if store is not None else [
                s for s in walk(forward) if s.name == "host.store" and
                string_attr(s, "name") == string_attr(op, "name")]
            for s in stores:
                found.add(s)
                todo.extend(s.operands)
        todo.extend(op.operands)
    return found


def _held(call) -> list | None:
    """What the class stores in `self.x` for a call of `self.x` (`Decoder(...)`,
    `nn.Sequential(...)`); None when the callee is not an attribute of `self`."""
    callee = producer(call.operands[0])
    stores = self_attribute_stores(callee) if callee is not None and \
        callee.name == "host.getattr" else None
    return None if stores is None else [producer(s.operands[1]) for s in stores]


def _network(call) -> bool:
    """A call of a sub-module that is a network: an instance of a model class of the
    program (`self.decoder = Decoder(...)`) or an `nn.Sequential`."""
    made = _held(call)
    if made is None:
        return False
    cls = instance_class(call.operands[0], call)
    if cls is not None:
        return module_class(cls)
    return bool(made) and all(m is not None and string_attr(m, "qualname") in _CONTAINERS
                              for m in made)


#: the fewest weighted layers a discarded network holds to be reported (a decoder, not an
#: actor's or a value's head of two)
_LAYERS = 3
_CONTAINERS = ("torch.nn.Sequential", "torch.nn.ModuleList")


def _weight(call) -> int:
    """How many weighted library layers (`catalogue.weighted_layers`) the sub-module a
    call of `self.x` runs holds, through containers and the program's model classes."""
    return max((_made_weight(made, 0) for made in _held(call) or ()), default=0)


def _made_weight(made, depth: int) -> int:
    if made is None or made.name != "host.call" or depth > 3:
        return 0
    qualname = string_attr(made, "qualname")
    if qualname in catalogue.load().weighted_layers:
        return 1
    if qualname in _CONTAINERS:
        return sum(_made_weight(producer(v), depth + 1) for v in list(made.operands)[1:])
    cls = constructed_class(made)
    if cls is None:
        return 0
    return sum(_made_weight(o, depth + 1) for o in walk(cls) if o.name == "host.call")


def _report(call, forward, ctx, dropped: list, network, alone) -> None:
    cls = forward.parent
    at = span(network.location)
    named = _outputs(dropped)
    elsewhere = in_other_file(network, call)
    message = (f"{forward_text(call)} runs `{string_attr(cls, 'sym_name')}.forward`, and "
               f"the caller discards its {named}, which {forward_text(network)}"
               f"{f' (line {at.line}{elsewhere})' if at else ''} computes for nothing else; "
               f"it runs "
               f"{ctx.phrase(call)}: that network runs for nothing on each; call the "
               f"sub-modules whose outputs are used, or give the model a method that "
               f"returns only them")
    assumptions = [
        Assumption("step-share", forward_text(network), "medium", "speculated",
                   "the discarded network is a noticeable share of the model's work (a "
                   "decoder beside its encoder)"),
        Assumption("pure", forward_text(network), "medium", "speculated",
                   "running it changes no state the program reads later (batch-norm "
                   "statistics in training mode)"),
        *ctx.frequency_assumptions()]
    beside = callgraph.beside_steps(ctx.loop, ctx.site)  # once per update of a rollout
    if beside is not None:
        assumptions.append(beside)
    draws = [op for op in alone if string_attr(op, "effect") == "random"]
    if draws:
        assumptions.append(Assumption(
            "random-stream", f"`{string_attr(draws[0], 'qualname')}`", "medium",
            "speculated", "the discarded part draws random numbers: without it, later draws "
            "come from another point of the stream"))
    record_hint(call, HINT, message, assumptions, related=[ctx.site, network])


_ORDINALS = ("first", "second", "third", "fourth", "fifth")


def _outputs(dropped: list) -> str:
    """"first and third outputs (`recon`, `logsigma`)": the positions, and the names the
    forward returns."""
    places = [_ORDINALS[i] if i < len(_ORDINALS) else f"#{i + 1}" for i, _ in dropped]
    loads = [producer(v) for _, v in dropped]
    names = [string_attr(o, "name") if o is not None and o.name == "host.load" else ""
             for o in loads]
    text = places[0] if len(places) == 1 else f"{', '.join(places[:-1])} and {places[-1]}"
    text += " output" if len(places) == 1 else " outputs"
    return text + (f" ({', '.join(f'`{n}`' for n in names)})" if all(names) else "")


RULE = Rule(
    flag="harp-discarded-outputs",
    summary="Find model outputs computed by a network the caller discards (HARP305)",
    run=run,
    hint=HintSpec(
        id=HINT,
        name="discarded-model-outputs",
        finds="a call of a model of the program, on every step of a training loop, whose "
              "caller discards outputs that a whole sub-network of the model computes for "
              "nothing else (a VAE run only for its encoder's mean and variance)",
        why="the discarded network still runs, forward (and under autograd, recorded) on "
            "every call: for a VAE's decoder, about as much work as the encoder the caller "
            "wanted",
        refactoring="call the sub-modules whose outputs are used (`vae.encoder(x)`), or "
                    "give the model a method that computes only them",
        before="_, mu, logsigma = vae(frames)\n",
        after="mu, logsigma = vae.encoder(frames)\n",
        assumptions=("step-share", "pure", "random-stream", "every-iteration", "hot-loop"),
    ),
)
