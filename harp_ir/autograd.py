"""Autograd reachability: does what a forward pass computes ever reach `backward()`?

A PyTorch forward run with autograd on records a graph and keeps its activations alive for
a backward pass. When its outputs only end on the host (`.item()`, `float(t)`), detached,
or unused, that work is wasted: an agent's action picked on every environment step, a
policy's probabilities logged, a metric. The question is asked per value, by following
def-use forward from the value: through tensor operations, local slots (the loads a store
reaches), containers, distributions, returns (to every call site of the function), until it
ends on the host (nothing reached), at a `backward()` (reached), or somewhere the analysis
cannot follow (a call of unknown code, an attribute, a list append, a closure): that is
treated as reaching, so a "never" answer is a proof, not a guess.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from torch_mlir import ir

from harp_ir import analysis, catalogue
from harp_ir.analysis import (
    calls_of,
    enclosing_scope,
    producer,
    same_op,
    string_attr,
    strings_attr,
    walk,
)

_LIMIT = 400  # uses followed per question: beyond it, assume the value escapes
#: ops whose result is computed from the operand and carries its gradient
_CARRY = ("host.binop", "host.unop", "host.getitem", "host.tuple", "host.list",
          "host.unpack", "host.slice")
#: ops whose result is a host value (a comparison is a bool tensor without a gradient)
_HOST = ("host.truth", "host.compare", "host.fstring")


@dataclass
class Flow:
    """Where a value's gradient can go: `reaches` (a `backward()` or somewhere the analysis
    cannot follow, with why), `returns` (the enclosing function returns it), and the ends
    it met on the host (`.item()`), for messages."""

    reaches: list[str] = field(default_factory=list)
    returns: bool = False
    ends: list[str] = field(default_factory=list)
    backwards: list[ir.Operation] = field(default_factory=list)  # the `backward()` calls
    #: lists that hold it across iterations of the loop that appends it (`values.append(v)`
    #: in a rollout): autograd keeps each iteration's graph alive until they are dropped
    kept: list[str] = field(default_factory=list)
    #: follow a script's globals too, when no function and no other file can read them
    scripts: bool = False

    @property
    def never(self) -> bool:
        return not self.reaches and not self.returns


def flow(value: ir.Value, scripts: bool = False) -> Flow:
    """Follow `value` forward through its function (returns are reported, not followed);
    with `scripts`, through a script's top-level names as well (see `loads_reading`)."""
    out, seen, work = Flow(scripts=scripts), set(), [value]
    known = catalogue.load()
    while work:
        if len(seen) > _LIMIT:
            out.reaches.append("too many uses to follow")
            break
        v = work.pop()
        for use in v.uses:
            op = use.owner.operation if hasattr(use.owner, "operation") else use.owner
            key = (op, use.operand_number)
            if key in seen:
                continue
            seen.add(key)
            _step(op, use.operand_number, out, work, known)
    return out


def _step(op: ir.Operation, index: int, out: Flow, work: list, known) -> None:
    name = op.name
    if name == "host.store":
        loads = loads_reading(op, out.scripts)
        if loads is None:
            out.reaches.append(f"`{string_attr(op, 'name')}` is read where it cannot be "
                               "followed")
        else:
            work.extend(load.result for load in loads)
    elif name == "host.getattr":
        attr = string_attr(op, "attr")
        if attr in known.detached_attributes:
            out.ends.append(f"`.{attr}`")
        elif attr == "backward":
            out.reaches.append("`backward()`")
            out.backwards += [u.owner.operation if hasattr(u.owner, "operation") else u.owner
                              for u in op.result.uses]
        else:
            _method(op, attr, out, work, known)
    elif name == "host.call":
        _argument(op, index, out, work, known)
    elif name in _CARRY:
        work.extend(op.results)
    elif name in _HOST:
        out.ends.append("a host value")
    elif name == "hostcf.return":
        out.returns = True
    elif name == "host.for" and index == 0:
        work.extend(op.regions[0].blocks[0].arguments)  # iterating over it
    else:
        out.reaches.append(f"`{name}`")


def _method(attribute: ir.Operation, attr: str, out: Flow, work: list, known) -> None:
    """`value.attr`: called, a method of the tensor (or distribution) whose result carries
    the gradient unless the catalogue says it is detached; read, an attribute that does.
    A list that holds it takes more items (`append`) without handing it on; a torch
    distribution's `sample()` draws without a gradient (`rsample()` keeps one)."""
    calls = [u.owner for u in attribute.result.uses]
    calls = [c.operation if hasattr(c, "operation") else c for c in calls]
    for call in calls:
        if call.name != "host.call" or not same_op(producer(call.operands[0]), attribute):
            out.reaches.append(f"`.{attr}` used as a value")
        elif attr in _FILLS and call.operands[1:] and \
                not any(v == attribute.operands[0] for v in list(call.operands)[1:]):
            continue  # the list the value is in grows; the value goes nowhere new
        elif attr in known.detached_methods or \
                attr == "sample" and _distribution(attribute.operands[0]):
            out.ends.append(f"`.{attr}()`")
        elif string_attr(call, "effect") == "mutate" or attr.endswith("_"):
            out.reaches.append(f"`.{attr}()` changes it in place")
        else:
            work.extend(call.results)
    if not calls:
        work.extend(attribute.results)  # `.T`, a property: the same tensor


def _argument(call: ir.Operation, index: int, out: Flow, work: list, known) -> None:
    """`f(..., value, ...)`: a library call whose result is computed from it (torch
    functions, distributions) carries it on; one that makes a host value ends it."""
    if index == 0:
        out.reaches.append("called as a function")
        return
    qualname = string_attr(call, "qualname")
    if string_attr(call, "method") in _FILLS:
        _into_list(call, out, work)
        return
    if qualname in _CARRYING_BUILTINS:
        work.extend(call.results)  # `zip(values, rewards)`, `list(...)`: the same values
        return
    if qualname in GRADIENT_CALLS:  # differentiated: autograd's record of it is needed
        out.reaches.append(f"`{qualname}(...)`")
        out.backwards.append(call)
    elif _forward_of_module(call):
        work.extend(call.results)  # a model's output is computed from its inputs
    elif qualname in known.host_results:
        out.ends.append(f"`{qualname.removeprefix('builtins.')}()`")
    elif qualname.startswith(("torch.", "math.")) and \
            string_attr(call, "effect") in ("pure", "view", "sync", "transfer"):
        work.extend(call.results)
    elif not _through_program_function(call, index, out, work):
        out.reaches.append(f"passed to `{qualname or _callee_text(call)}`")


#: the functions of the program a question is following a value into (the innermost last)
_FOLLOWING: list[ir.Operation] = []
#: how many calls deep a value is followed into the program's functions
_CALL_DEPTH = 3


def _through_program_function(call: ir.Operation, index: int, out: Flow, work: list) -> bool:
    """`advantages = calculate_advantages(returns, values)`: a value passed to functions
    of the program is followed into each, from the parameter it binds; what they return
    is taken to carry it on at the call. False (not followed) for a keyword or starred
    argument, a call whose functions are not all known, recursion, or beyond a few calls."""
    funcs = analysis.called_functions(call)
    if not funcs or len(_FOLLOWING) >= _CALL_DEPTH or \
            any(same_op(f, g) for f in funcs for g in _FOLLOWING):
        return False
    params = [analysis.parameter_bound(f, call, index) for f in funcs]
    if any(p is None for p in params):
        return False
    for func, param in zip(funcs, params, strict=True):
        _FOLLOWING.append(func)
        try:
            inner = flow(param, out.scripts)
        finally:
            _FOLLOWING.pop()
        name = string_attr(func, "sym_name") or "a function"
        out.reaches += [f"{r} in `{name}`" for r in inner.reaches]
        out.ends += inner.ends  # (a list it fills is its own, dropped when it returns)
        out.backwards += inner.backwards
        if inner.returns:
            work.extend(call.results)
    return True


#: calls that differentiate what they are given, as `backward()` does
GRADIENT_CALLS = ("torch.autograd.grad", "torch.autograd.backward")
#: methods that put their argument into the list they are called on
_FILLS = ("append", "extend", "insert", "appendleft")
#: builtins whose result holds the values they are given
_CARRYING_BUILTINS = ("builtins.zip", "builtins.list", "builtins.tuple", "builtins.reversed",
                      "builtins.enumerate")


def _into_list(call: ir.Operation, out: Flow, work: list) -> None:
    """`values.append(value)`: follow the list, a local, to where it is read (the loads
    the stores that reach this one can reach); a list the analysis cannot follow (an
    attribute, a global) is somewhere the value may reach backward from. A list bound
    outside the loop that appends keeps the value across its iterations."""
    receiver = producer(producer(call.operands[0]).operands[0])
    name = string_attr(receiver, "name") if receiver is not None and \
        receiver.name == "host.load" else ""
    stores = stores_reaching(receiver) if name else None
    if not stores:
        out.reaches.append(f"appended to `{string_attr(call, 'harp.receiver') or 'a list'}`")
        return
    for store in stores:
        loads = loads_reading(store, out.scripts)
        if loads is None:
            out.reaches.append(f"`{name}` is read where it cannot be followed")
            return
        work.extend(load.result for load in loads)
        if any(not analysis.holds(loop, store) for loop in analysis.loops_around(call)) \
                and name not in out.kept:
            out.kept.append(name)


def _distribution(value: ir.Value) -> bool:
    """Whether `value` is a `torch.distributions` object made in its function."""
    made = producer(value)
    if made is not None and made.name == "host.load":
        store = analysis.binding_store(made)
        made = producer(store.operands[0]) if store is not None else None
    return made is not None and made.name == "host.call" and \
        string_attr(made, "qualname").startswith("torch.distributions.")


def _forward_of_module(call: ir.Operation) -> bool:
    """A call of a torch module whose forward keeps nothing of its inputs: a library layer,
    or a class of the program whose forward stores nothing on an object (a stateful
    forward, `self.hidden = h`, may hand its input to a later backward)."""
    callee = producer(call.operands[0])
    if callee is None or string_attr(callee, "harp.kind") != "module" or \
            string_attr(callee, "harp.framework") != "torch":
        return False
    func = analysis.called_function(call)
    return func is None or not any(o.name in ("host.setattr", "host.setitem")
                                   for o in walk(func))


def _callee_text(call: ir.Operation) -> str:
    callee = producer(call.operands[0])
    if callee is None:
        return "a call"
    return string_attr(callee, "attr") or string_attr(callee, "name") or "a call"


def loads_reading(store: ir.Operation, scripts: bool = False) -> list[ir.Operation] | None:
    """The loads of `store`'s slot that can read what it stored, in its own scope: those
    after it until a store of the same name in the same block (which every later path
    passes), and, in a loop, the loads before it when nothing in its block rebinds the
    name after it. None when another scope reads the name (a closure, a global); with
    `scripts`, a script's top-level name is followed when no function of it and no other
    file of the program (none imports it) can read the name."""
    scope, name = enclosing_scope(store), string_attr(store, "name")
    ops = [o for o in walk(scope) if o.name in ("host.load", "host.store")
           and string_attr(o, "name") == name]
    nested = {enclosing_scope(o) for o in ops if not same_op(enclosing_scope(o), scope)}
    if any(not _binds_locally(f, name) for f in nested):
        return None  # read or written by a nested function
    ops = [o for o in ops if same_op(enclosing_scope(o), scope)]
    if scope.name == "host.module" and not (scripts and len(sharing(scope)) == 1) or \
            string_attr(store, "scope") in ("global", "nonlocal"):
        return None  # a global: other functions may read it
    at = next(i for i, o in enumerate(ops) if o == store)
    found, killed, between, rebinding = [], False, [], []
    for o in ops[at + 1:]:
        if o.name == "host.store":
            if _same_block(o, store):
                killed = True
                break
            between.append(o)
            rebinding = between + _both_branches(between)
        elif not _rebound_before(o, rebinding):
            found.append(o)
    loops = analysis.loops_around(store)  # within its scope, innermost first
    if loops and not killed:  # the next iterations of the outermost one read it too
        between, rebinding = [], []
        for o in ops[:at]:
            if not analysis.holds(loops[-1], o):
                continue
            if o.name == "host.store":
                between.append(o)
                rebinding = between + _both_branches(between)
            elif not _rebound_before(o, rebinding):
                found.append(o)
    return found


@analysis.per_run()
def _binds_locally(func: ir.Operation, name: str) -> bool:
    """Whether the function `func` assigns `name` without declaring it global or
    nonlocal: then every read of it there is its own local (`out` in a helper beside a
    script's `out`)."""
    return func.name == "host.func" and any(
        o.name == "host.store" and string_attr(o, "name") == name and
        not string_attr(o, "scope") and same_op(enclosing_scope(o), func) for o in walk(func))


def _rebound_before(load: ir.Operation, rebinding: list[ir.Operation]) -> bool:
    """Whether one of `rebinding` (stores before `load`, and the `if`s each of whose
    branches stores the name: `if labels: loss = ce(...)` / `else: loss = mse(...)`, see
    `_both_branches`) runs before `load` on every path: it sits in a block that holds
    `load`, so `load` reads it or a later store."""
    for store in rebinding:
        at = load
        while at is not None:
            if at.block == store.block:
                return True
            at = at.parent if at.parent is not None and at.parent.name != "host.module" \
                else None
    return False


def _both_branches(stores: list[ir.Operation]) -> list[ir.Operation]:
    """The `if`s around `stores` both of whose branches store on every path: each branch
    holds one of `stores` in its own block, or such an `if`."""
    found: list[ir.Operation] = []
    for store in stores:
        at = store
        while True:
            region_op = at.parent
            if region_op is None or region_op.name != "host.if" or \
                    len(region_op.regions) != 2 or any(same_op(region_op, f) for f in found):
                break
            covered = stores + found
            if not all(len(r.blocks) and any(c.block == r.blocks[0] for c in covered)
                       for r in region_op.regions):
                break  # a branch without a store (or an `if` without `else`)
            found.append(region_op)
            at = region_op
    return found


def stores_reaching(load: ir.Operation) -> list[ir.Operation] | None:
    """The stores of a local's name whose value `load` may read (see `loads_reading`);
    None when one of them cannot be followed."""
    scope, name = enclosing_scope(load), string_attr(load, "name")
    found = []
    for store in walk(scope):
        if store.name != "host.store" or string_attr(store, "name") != name or \
                not same_op(enclosing_scope(store), scope):
            continue
        loads = loads_reading(store)
        if loads is None:
            return None
        if any(same_op(o, load) for o in loads):
            found.append(store)
    return found


def _same_block(a: ir.Operation, b: ir.Operation) -> bool:
    return a.block == b.block


def wasted_at(origin: ir.Operation, depth: int = 2) -> list[tuple[ir.Operation, Flow]]:
    """The calls where the forward `origin` computes is wasted, each with where its outputs
    went (the host ends met, the lists that keep them): `origin` itself when its outputs
    never reach backward in its function; else, when they are only returned, the call
    sites of its function whose results never do (a policy's `pi` is wasted where the
    agent acts, not where it trains)."""
    result = flow(origin.result)
    if result.reaches:
        return []
    if not result.returns:
        return [(origin, result)]
    func = enclosing_scope(origin)
    if func.name != "host.func" or depth == 0:
        return []
    return [found for site in calls_of(func) for found in wasted_at(site, depth - 1)]


# --- Whose parameters train -----------------------------------------------------------------
#
# A module is named by where it is made: ("site", the `Net()` call) for a local, global or
# argument bound to one construction, ("attr", class, name) for `self.name` that its class
# stores once (resolved to the construction when it stores one), ("class", class) for the
# parameters of `self` in a method of that class (every instance of it).


def module_key(value: ir.Value, depth: int = 0) -> tuple | None:
    """Which module `value` is, by where it is made; None when the code does not say."""

    op = producer(value)
    if op is None or depth > 4:
        return None
    if op.name == "host.call" and string_attr(op, "effect") == "construct" and \
            string_attr(op, "harp.kind") == "module" and \
            string_attr(op, "harp.framework") == "torch":
        return ("site", op)
    if op.name == "host.call" and string_attr(op, "method") in _RETURNS_SELF:
        callee = producer(op.operands[0])  # `Net().to(device)` is the same module
        return module_key(callee.operands[0], depth + 1) if callee is not None and \
            callee.name == "host.getattr" else None
    if op.name == "host.getattr":
        cls = analysis.self_class(op.operands[0])
        if cls is None:
            return None
        stores = analysis.making_stores(cls, string_attr(op, "attr"))
        if len(stores) != 1:
            return None
        made = module_key(stores[0].operands[1], depth + 1)
        return made if made is not None and made[0] == "site" else \
            ("attr", cls, string_attr(op, "attr"))
    if op.name != "host.load":
        return None
    cls = analysis.self_class(value)
    if cls is not None:
        return ("class", cls)
    if analysis.reaching_store(op) is not None:  # the binding straight-line code gives it
        made = analysis.reaching_definition(value, analysis.enclosing_scope(op))
        if made is not None and made.name != "host.load" and len(made.results) == 1:
            return module_key(made.result, depth + 1)  # (`G = G.to(device)`: G as passed)
    for scope in analysis.binding_scopes(op):
        made = analysis.definition(value, scope)
        if made is None:  # `vgg = VGG(); vgg = vgg.to(device)`: moved, the same module
            bound = analysis.definitions(value, scope)
            kept = constructions(bound, string_attr(op, "name"))
            made = kept[0] if len(kept) == 1 and len(bound) > 1 and \
                kept[0].name == "host.call" else None
        if made is not None and made.name != "host.load":
            return module_key(made.result, depth + 1) if len(made.results) == 1 else None
    passed = analysis.passed_arguments(value)
    if not passed:
        return None
    keys = {module_key(argument, depth + 1) for argument, _ in passed}
    return keys.pop() if len(keys) == 1 else None


def constructions(bound: list, name: str) -> list:
    """Of the ops a name is bound to (`analysis.definitions`), those that make its object:
    not the object itself moved or switched (`name = name.to(device)`, `name.eval()`), nor
    the same object restored from a checkpoint in another branch (`name =
    checkpoint["generator"]`)."""
    kept = []
    for op in bound:
        if op.name == "host.getitem":
            continue
        callee = producer(op.operands[0]) if op.name == "host.call" and op.operands else None
        held = producer(callee.operands[0]) if callee is not None and \
            callee.name == "host.getattr" else None
        if held is not None and held.name == "host.load" and \
                string_attr(held, "name") == name and string_attr(op, "method") in _RETURNS_SELF:
            continue
        kept.append(op)
    return kept


#: nn.Module methods that return the module itself
_RETURNS_SELF = ("to", "cuda", "cpu", "float", "double", "half", "bfloat16", "train", "eval",
                 "share_memory", "to_empty")


def class_of(key: tuple) -> ir.Operation | None:
    """The program's class of the module `key` names (None for a library module, or an
    attribute stored from something else than a construction)."""

    if key[0] == "class":
        return key[1]
    if key[0] == "site":
        return analysis.instance_class(key[1].result, key[1])
    return None


def sharing(file: ir.Operation) -> list[ir.Operation]:
    """`file` and the files of the program that import it: where its modules can be used
    (scripts side by side in a folder share nothing)."""
    name = string_attr(file, "sym_name")
    return [file] + [m for m in analysis._program_modules(file).values()
                     if not same_op(m, file) and any(
                         o.name == "host.import" and string_attr(o, "module") == name
                         for o in walk(m))]


def optimized_modules(file: ir.Operation, tensors_alone: bool = False) -> set[tuple] | None:
    """The modules whose parameters an optimizer holds, of those `file` (a host.module)
    makes: optimizers in it and in the files of the program that import it (scripts side
    by side in a folder do not share modules); None when one of those optimizers is given
    its parameters in a form this cannot read (then every module may train). With
    `tensors_alone`, an optimizer over a list of tensors made by the program (`SGD([image])`,
    no module's attribute) holds no module."""
    found: set[tuple] = set()
    for op in (o for f in sharing(file) for o in walk(f)):
        if op.name != "host.call" or string_attr(op, "harp.kind") != "optimizer" or \
                string_attr(op, "effect") != "construct":
            continue
        keys = held_by(op)
        if keys is None and not (tensors_alone and _made_tensors(_parameters_argument(op))):
            return None
        owned = _owned_by_instances(op, keys)
        found |= {owned} if owned else keys or set()
    for op in (o for f in _imported_files(file) for o in walk(f)):
        if op.name == "host.call" and string_attr(op, "harp.kind") == "optimizer" and \
                string_attr(op, "effect") == "construct":
            owned = _owned_by_instances(op, held_by(op))
            if owned:  # a network class of another file that keeps its own optimizer
                found.add(owned)
    return found


def _imported_files(file: ir.Operation) -> list[ir.Operation]:
    """The files of the program that `file` imports (where the classes it instantiates may
    be defined)."""
    modules = analysis._program_modules(file)
    names = {string_attr(o, "module") for o in walk(file) if o.name == "host.import"}
    return [m for name, m in modules.items() if name in names and not same_op(m, file)]


def _owned_by_instances(construction: ir.Operation, keys: set[tuple] | None) -> tuple | None:
    """("owned", C, attr) when a module class C builds its own optimizer over its
    parameters and keeps it (`self.optimizer = optim.Adam(self.parameters())` in
    `__init__`): each instance has one, and it trains that instance only where the program
    uses `instance.attr` (a DQN's online network steps its own; the target network, an
    instance of the same class, never does). None for any other optimizer."""
    if not keys or len(keys) != 1:
        return None
    key = next(iter(keys))
    if key[0] != "class":
        return None
    stores = [u for use in construction.result.uses
              if (u := analysis.user(use)).name == "host.setattr" and use.operand_number == 1
              and analysis.self_class(u.operands[0]) is not None and
              same_op(analysis.self_class(u.operands[0]), key[1])]
    return ("owned", key[1], string_attr(stores[0], "attr")) if len(stores) == 1 else None


def _uses_own_optimizer(key: tuple, cls: ir.Operation, attr: str) -> bool:
    """Whether the program reads the optimizer a module of class `cls` keeps in `attr` for
    the instance `key` names, or for one it cannot tell apart from it: in the class's own
    methods (`self.optimizer.step()` there runs for every instance), on an instance of
    unknown origin, or on this one (`self.q_eval.optimizer.step()`). The class itself
    (`key` of its `self`) stands for all of its instances."""
    for op in walk(analysis.program_of(cls)):
        if op.name != "host.getattr" or string_attr(op, "attr") != attr:
            continue
        inside = analysis.self_class(op.operands[0])
        other = module_key(op.operands[0])
        if inside is not None and same_op(inside, cls) or other is None or other == key \
                or key[0] == "class":
            return True
    return False


def _parameters_argument(construction: ir.Operation) -> ir.Value | None:
    args = [v for k, v in analysis.call_arguments(construction) if k in ("", "params")]
    return args[0] if args else None


def held_by(construction: ir.Operation) -> set[tuple] | None:
    """The modules whose parameters the optimizer made by `construction` holds; None when
    its parameters come in a form this cannot read."""
    params = _parameters_argument(construction)
    return _parameter_owners(params) if params is not None else None


def optimizer_made(value: ir.Value, depth: int = 0) -> ir.Operation | None:
    """The construction of the optimizer `value` is: the call itself, or what a name or
    `self.opt` bound in one place holds (`analysis.made_once`), followed through aliases;
    None when the code does not say."""
    op = analysis.made_once(value)
    if op is None or depth > 4:
        return None
    if op.name == "host.call" and string_attr(op, "harp.kind") == "optimizer" and \
            string_attr(op, "effect") == "construct":
        return op
    if op.name in ("host.load", "host.getattr") and not same_op(op, producer(value)):
        return optimizer_made(op.result, depth + 1)  # `opt = self.opt`
    return None


def _made_tensors(value: ir.Value) -> bool:
    """`[image]`, `(z, w)`: a display of tensors the program makes itself (a factory, or a
    name bound to one), none read from a module (`model.fc.weight` is a parameter)."""
    op = producer(value) if value is not None else None
    if op is None or op.name not in ("host.list", "host.tuple") or not list(op.operands):
        return False
    for element in op.operands:
        made = producer(element)
        if made is not None and made.name == "host.load":
            made = analysis.definition(element, enclosing_scope(made))
        if made is None or made.name == "host.getattr" or \
                string_attr(made, "harp.kind") != "tensor":
            return False
    return True


def _parameter_owners(value: ir.Value, depth: int = 0) -> set[tuple] | None:
    """The modules whose `.parameters()` make up `value`: `m.parameters()`, `list(...)` of
    it, `a + b`, `itertools.chain(...)`, `filter(...)` of it, a list display; None for
    anything else."""
    op = producer(value)
    if op is None or depth > 4:
        return None
    if op.name == "host.call":
        callee = producer(op.operands[0])
        if callee is not None and callee.name == "host.getattr" and \
                string_attr(callee, "attr") == "parameters":
            key = module_key(callee.operands[0])
            return {key} if key is not None else None
        if string_attr(op, "qualname") in ("builtins.list", "itertools.chain", "builtins.tuple"):
            parts = [_parameter_owners(v, depth + 1) for v in list(op.operands)[1:]]
            return set().union(*parts) if parts and None not in parts else None
        if callee is not None and callee.name == "host.load" and len(op.operands) == 3 and \
                string_attr(callee, "name") == "filter" and \
                string_attr(callee, "scope") == "builtin":
            # `filter(lambda p: p.requires_grad, g.parameters())`: some of g's parameters
            return _parameter_owners(op.operands[2], depth + 1)
        return None
    if op.name in ("host.binop", "host.list", "host.tuple"):
        parts = [_parameter_owners(v, depth + 1) for v in op.operands]
        return set().union(*parts) if parts and None not in parts else None
    if op.name == "host.load":
        made = analysis.definition(value, enclosing_scope(op))
        return _parameter_owners(made.result, depth + 1) if made is not None and \
            len(made.results) == 1 else None
    return None


def trains(key: tuple, optimized: set[tuple]) -> bool:
    """Whether an optimizer holds the parameters of the module `key` names, itself or as
    part of a module that holds it (`self.parameters()` of its class)."""
    if key in optimized:
        return True
    cls = class_of(key)
    if cls is not None and ("class", cls) in optimized:
        return True
    if key[0] == "attr" and ("class", key[1]) in optimized:
        return True
    return cls is not None and any(
        k[0] == "owned" and same_op(k[1], cls) and _uses_own_optimizer(key, cls, k[2])
        for k in optimized)


def gradient_free(value: ir.Value, optimized: set[tuple], depth: int = 0,
                  visiting: frozenset = frozenset(), given: tuple = ()) -> str:
    """Whether `value` carries no gradient towards a trained parameter: "proved" (built
    from constants, data a loader yields, and modules no optimizer holds), "speculated"
    (it also comes from code harp cannot see, taken to be data: a replay memory's
    `sample()`), or "no". A name's stores are each asked once along a path (`z = z.cuda()`
    adds no new source). What a function of the program returns is followed with its
    parameters taken as the arguments the call gives (`given`: the functions being
    followed, whose arguments were asked at the call)."""
    op = producer(value)
    if depth > 16:
        return "speculated"
    if analysis.loader_batch_place(value) is not None:
        return "proved"  # a batch a data loader collates from its dataset
    if op is not None and (op.name == "host.compare" or op.name == "host.load" and
                           string_attr(op, "qualname")) or \
            analysis.value_kind(value) in ("scalar", "library"):
        return "proved"  # a truth value, a library's module or function, a Python number
    if op is None:  # a block argument: a loop variable or a parameter
        return "proved" if _given_parameter(value, given) else "speculated"
    name = op.name
    if name == "host.constant":
        return "proved"
    if name == "host.load":
        stores = analysis._stores(enclosing_scope(op)).get(string_attr(op, "name"), [])
        if not stores:
            return "speculated"
        fresh = [s for s in stores if s not in visiting]
        return weakest([gradient_free(s.operands[0], optimized, depth + 1,
                                      visiting | set(fresh), given) for s in fresh] +
                       ["proved"])
    if name == "host.call":
        callee = producer(op.operands[0])
        if callee is not None and string_attr(callee, "harp.kind") == "module" or \
                calls_made_module(op):
            key = module_key(op.operands[0])
            if key is None or trains(key, optimized):
                return "no"
            return weakest([gradient_free(v, optimized, depth + 1, visiting, given)
                             for v in list(op.operands)[1:]] + ["proved"])
        method = string_attr(op, "method")
        qualname = string_attr(op, "qualname")
        known = catalogue.load()
        if method in known.detached_methods or string_attr(op, "effect") == "random" or \
                qualname in known.fresh_allocations:
            return "proved"  # a host value, or a fresh draw or allocation
        funcs = [] if qualname.startswith("torch.") else analysis.called_functions(op)
        if funcs:  # a function of the program (`util.imgs_resize(x_, 286)`)
            returned = analysis.returned_values(op)
            arguments = weakest([gradient_free(v, optimized, depth + 1, visiting, given)
                                 for v in list(op.operands)[1:]] + ["proved"])
            if arguments == "no":
                return "no"
            if not returned:
                return "speculated"  # a function that returns nothing readable
            inner = given + tuple(funcs) if arguments == "proved" else given
            return weakest([arguments] + [gradient_free(r, optimized, depth + 1, visiting,
                                                        inner) for r in returned])
        if qualname or (callee is not None and callee.name == "host.getattr"):
            # a library's call or a method: gradients come only from what it is given
            receiver = [callee.operands[0]] if callee is not None and \
                callee.name == "host.getattr" else []
            return weakest([gradient_free(v, optimized, depth + 1, visiting, given)
                             for v in receiver + list(op.operands)[1:]] + ["proved"])
        return "speculated"
    if (element := analysis.packed_element(value)) is not None:  # `x, z = x.cuda(), z.cuda()`
        return gradient_free(element, optimized, depth + 1, visiting, given)
    if name == "host.getitem":  # an index carries no gradient into what it selects
        return gradient_free(op.operands[0], optimized, depth + 1, visiting, given)
    if chosen := analysis.chosen_values(value):  # `"cuda" if cuda else "cpu"`
        return weakest([gradient_free(v, optimized, depth + 1, visiting, given)
                        for v in chosen])
    if name in ("host.binop", "host.unop", "host.unpack", "host.tuple", "host.list",
                "host.getattr"):
        return weakest([gradient_free(v, optimized, depth + 1, visiting, given)
                        for v in op.operands] + ["proved"])
    return "speculated"


def _given_parameter(value: ir.Value, given: tuple) -> bool:
    """Whether `value` is a parameter of one of the functions `given` whose call passed
    gradient-free arguments; a method's `self` is not (its attributes may be trained
    tensors the call never passed)."""
    block = value.owner
    func = block.owner if isinstance(block, ir.Block) else None
    if func is None or func.name != "host.func" or not any(same_op(func, f) for f in given):
        return False
    is_method = func.parent is not None and func.parent.name == "host.class"
    return not (is_method and value.arg_number == 0)


def weakest(answers: list[str]) -> str:
    return "no" if "no" in answers else "speculated" if "speculated" in answers else "proved"


_WRITES = ("load_state_dict", "copy_", "lerp_", "mul_", "add_", "set_")


def written_by_hand(key: tuple, file: ir.Operation, in_loop: bool = False) -> str:
    """How the program sets the parameters of the module `key` names without an optimizer
    (a target network's `load_state_dict(...)`, or a function it is passed to that copies
    into its parameters: a soft update), as a phrase; "" when it does not. With
    `in_loop`, a `load_state_dict` counts only inside a loop (loading weights once, before
    use, is no copy of what other code trains)."""
    for op in (o for f in sharing(file) for o in walk(f)):
        if op.name != "host.call":
            continue
        callee = producer(op.operands[0])
        if string_attr(op, "method") == "load_state_dict" and callee is not None and \
                callee.name == "host.getattr" and module_key(callee.operands[0]) == key and \
                not (in_loop and analysis.enclosing_loop(op) is None):
            return "`load_state_dict(...)`"
        func = analysis.called_function(op)
        if func is None or not any(module_key(v) == key for v in list(op.operands)[1:]):
            continue
        if any(o.name == "host.call" and string_attr(o, "method") in _WRITES
               for o in walk(func)):
            return f"`{string_attr(func, 'sym_name')}(...)`"
    return ""


def gradients_read(key: tuple, file: ir.Operation) -> bool:
    """Whether the program reads the weight gradients of the module `key` names (or of one
    it cannot tell apart): `.grad` or `._grad` of the variable of a loop over its
    `.parameters()`, zipped with others or not (A3C copies a local network's gradients into
    the global one's, `global_param._grad = local_param.grad`). Such a module's backward is
    not wasted, though no optimizer holds it."""
    for op in (o for f in sharing(file) for o in walk(f)):
        if op.name != "host.getattr" or string_attr(op, "attr") not in ("grad", "_grad"):
            continue
        read = producer(op.operands[0])
        loop = next((lp for lp in analysis.loops_around(read) if lp.name == "host.for"),
                    None) if read is not None and read.name == "host.load" else None
        if loop is None:
            continue
        for part in _argument_ops(loop.operands[0]):
            callee = producer(part.operands[0]) if part.name == "host.call" else None
            if callee is not None and callee.name == "host.getattr" and \
                    string_attr(callee, "attr") in ("parameters", "named_parameters"):
                other = module_key(callee.operands[0])
                if other is None or other == key:
                    return True
    return False


def _argument_ops(value: ir.Value, depth: int = 0):
    """The ops an expression is made of, into the arguments of its calls (`zip(a.
    parameters(), b.parameters())` gives both `.parameters()` calls)."""
    op = producer(value)
    if op is None or depth > 4:
        return
    yield op
    for v in op.operands:
        yield from _argument_ops(v, depth + 1)


# --- Forwards of modules, as the rules about gradients ask about them ---------------------

#: contexts and decorators that turn autograd off
NO_GRAD = ("torch.no_grad", "torch.inference_mode", "torch.enable_grad")


def calls_module(op) -> str:
    """The name of the torch module `op` calls, if it does."""
    if op.name != "host.call":
        return ""
    owner = op.operands[0].owner
    callee = owner.operation if hasattr(owner, "operation") else None
    if callee is not None and string_attr(callee, "harp.kind") == "module" and \
            string_attr(callee, "harp.framework") == "torch":
        return string_attr(callee, "name") or string_attr(callee, "attr") or "the model"
    return ""


def parameterless(call) -> bool:
    """Whether `call` runs an instance of a program class that holds no parameters: a
    direct `nn.Module` subclass none of whose methods stores an attribute or registers
    one (an element-wise `forward`). Autograd records nothing through it unless an input
    requires grad."""
    return parameterless_class(analysis.instance_class(call.operands[0], call))


def parameterless_class(cls) -> bool:
    """Whether `cls` is a direct `nn.Module` subclass none of whose methods stores an
    attribute or registers one: its instances hold no parameters (a Gram matrix, a loss
    computed in `forward`)."""
    if cls is None or cls.name != "host.class" or not cls.operands or any(
            string_attr(producer(b), "qualname") != "torch.nn.Module" if producer(b)
            else True for b in cls.operands):
        return False
    return not any(o.name == "host.setattr" or o.name == "host.call" and string_attr(
        o, "method") in ("register_parameter", "register_buffer", "register_module",
                         "add_module") for o in walk(cls))


def grad_disabled(op, depth: int = 0) -> bool:
    """Whether autograd is off where `op` runs: inside `with torch.no_grad()`, a function
    decorated with it, or a function of the file whose every call is in such code (a
    helper only a `@torch.no_grad()` test method calls)."""
    parent = op.parent
    while parent is not None:
        for attr in ("harp.contexts", "harp.decorators"):  # on host.with / host.func
            if any(a in NO_GRAD for a in strings_attr(parent, attr)):
                return True
        calls = calls_of(parent) if parent.name == "host.func" and depth < 3 else []
        if calls:
            return all(grad_disabled(c, depth + 1) for c in calls)
        parent = parent.parent
    return False


def calls_loss(op) -> bool:
    """A call of a loss module (`nn.CrossEntropyLoss()`): a criterion, not a model."""
    key = module_key(op.operands[0])
    return key is not None and key[0] == "site" and \
        string_attr(key[1], "qualname").endswith("Loss")


def calls_made_module(op) -> bool:
    """A call of a value the program binds to one module construction, though its own
    load carries no kind (a parameter every caller passes the same `Net()`), or of an
    instance of the program's own `nn.Module` subclass (`self.g12 = G12(...)`, the class
    defined in another file)."""
    if op.name != "host.call":
        return False
    key = module_key(op.operands[0])
    if key is None:
        return False
    if key[0] == "site":
        return True
    cls = analysis.instance_class(op.operands[0], op)
    return cls is not None and analysis.module_class(cls, "torch")


def forward_text(site) -> str:
    """How a message names a forward call: "`self.q(...)`", "`net(...)`"."""
    callee = producer(site.operands[0])
    if callee is None:
        return "the call"
    if callee.name == "host.getattr":
        receiver = producer(callee.operands[0])
        base = string_attr(receiver, "name") or string_attr(receiver, "attr") \
            if receiver is not None else ""
        return f"`{base + '.' if base else ''}{string_attr(callee, 'attr')}(...)`"
    return f"`{string_attr(callee, 'name') or 'the model'}(...)`"


# --- The gradients a backward gives a module, cleared before anything uses them ---------
#
# A GAN's discriminator step backpropagates `D(G(z))` through the generator: the
# generator's weights are trained, but its own optimizer's `zero_grad()` clears what this
# backward gave them before any step reads it. HARP304 detaches the generator's output
# there; HARP302 then reuses it for the generator's step instead of a second forward.


def gradients_cleared(origin: ir.Operation, key: tuple, optimized: set[tuple]
                      ) -> tuple[ir.Operation, ir.Operation] | None:
    """(the backward, the `zero_grad()` call) when the output of the forward `origin` of
    module `key`, bound to a name by its own statement, reaches one `backward()` only, its
    inputs carry no gradient towards a trained parameter, and after that backward every
    path clears the module's gradients before anything uses them; else None."""
    reached = flow(origin.result, scripts=True)
    backward = reached.backwards[0] if reached.backwards else None
    if backward is None or reached.returns or \
            any(not same_op(b, backward) for b in reached.backwards) or \
            any(r != "`backward()`" for r in reached.reaches):
        return None
    inputs = weakest([gradient_free(v, optimized) for v in list(origin.operands)[1:]] +
                     ["proved"])
    if inputs != "proved" or not _stored_once(origin):
        return None  # a gradient its inputs may carry would be cut too (a DDPG actor's)
    clear = _cleared_after(backward, key)
    return (backward, clear) if clear is not None else None


def _stored_once(origin) -> bool:
    """`G_ = self.G(z_)`: the forward's result is bound to a name by its own statement (the
    fix detaches it there)."""
    users = [u.owner for u in origin.result.uses]
    return len(users) == 1 and users[0].name == "host.store"


def _cleared_after(backward, key):
    """The `zero_grad()` call that clears module `key`'s gradients on every path after
    `backward`, before any optimizer that may hold them steps or anything reads a `.grad`;
    None when some path uses them first or leaves the statement's loop iteration."""
    block, after = backward.block, backward
    while True:
        ops = list(block.operations)
        at = next(i for i, o in enumerate(ops) if same_op(o, after))
        fate, clear = _fate(ops[at + 1:], key)
        if fate == "used":
            return None
        if fate == "cleared":
            return clear
        owner = block.owner
        owner = owner.operation if hasattr(owner, "operation") else owner
        if owner is None or owner.name not in ("host.if", "host.with"):
            return None  # the end of a loop's iteration or of a function: not proved
        block, after = owner.block, owner


def _fate(ops, key, depth: int = 0):
    """What happens first to module `key`'s gradients along the straight-line `ops`:
    ("cleared", the zero_grad call) on every path, ("used", None) on some path, or
    ("", None) when nothing touches them."""
    for op in ops:
        fate = _touches(op, key, depth)
        if fate[0]:
            return fate
        if op.name == "host.if":
            branches = [_fate(list(r.blocks[0].operations), key, depth) for r in op.regions]
            if any(f == "used" for f, _ in branches):
                return "used", None
            if all(f == "cleared" for f, _ in branches):
                return branches[0]
        elif op.name == "host.with":
            fate = _fate(list(op.regions[0].blocks[0].operations), key, depth)
            if fate[0]:
                return fate
        elif op.regions and any(_touches(o, key, depth)[0] == "used" for o in walk(op)):
            return "used", None  # a loop or a try that may use them
    return "", None


def _may_step_gradients(step, made) -> bool:
    """Whether a `step()` whose optimizer's parameters are unknown may apply gradients: an
    optimizer's (made or typed so), or any step handed an optimizer (`scaler.step(opt)`);
    not an environment's step or a learning-rate scheduler's."""
    qualname = string_attr(step, "qualname")
    if "lr_scheduler" in qualname:
        return False
    callee = producer(step.operands[0])
    owner = producer(callee.operands[0])
    return made is not None or qualname.startswith("torch.optim.") or \
        owner is not None and string_attr(owner, "harp.kind") == "optimizer" or \
        any(optimizer_made(v) is not None for v in list(step.operands)[1:])


def _handed(call, key) -> bool:
    """Whether `call` is handed the module `key`, its parameters or an optimizer that may
    hold them (`logger.log_gradients(G)`, `watch(G)`)."""
    for value in list(call.operands)[1:]:
        source = producer(value)
        if source is not None and source.name == "host.call" and \
                string_attr(source, "method") in ("parameters", "named_parameters"):
            value = producer(source.operands[0]).operands[0]  # `G.parameters()`: `G`
        made = optimizer_made(value)
        held = held_by(made) if made is not None else set()
        if module_key(value) == key or held is None or \
                trains(key, held):
            return True
    return False


def _touches(op, key, depth: int):
    """How the single operation `op` (not what it nests) treats module `key`'s
    gradients: clears them (`opt.zero_grad()` of an optimizer that holds them, or the
    module's own), uses them (a step of an optimizer that may hold them, a `.grad` read, a
    gradient clip or unscale), or, for a call of the program's function, what its body
    does first."""
    if op.name == "host.getattr" and string_attr(op, "attr") == "grad":
        return "used", None
    if op.name != "host.call":
        return "", None
    method, qualname = string_attr(op, "method"), string_attr(op, "qualname")
    if "clip_grad" in qualname or method in ("unscale_", "clip_grad_norm_"):
        return "used", None
    func = analysis.called_function(op)
    if func is None and _handed(op, key):
        return "used", None  # code harp cannot see may read the gradients
    of = analysis.receiver(op)
    if method in ("zero_grad", "step") and of is not None:
        made = optimizer_made(of)
        held = held_by(made) if made is not None else None
        holds = held is not None and trains(key, held)
        if method == "zero_grad" and (holds or module_key(of) == key):
            return "cleared", op
        if method == "step" and (holds or held is None and _may_step_gradients(op, made)):
            return "used", None
        return "", None
    if func is not None and depth < 2:
        body = func.regions[0].blocks[0]
        return _fate(list(body.operations), key, depth + 1)
    return "", None
