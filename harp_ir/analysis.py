"""Shared analyses over host-dialect IR, written once and used by every pass.

Loop nests, source spans of ops and the recording of findings live here, so that a pass
module only says what it looks for.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from torch_mlir import ir

from harp_ir import catalogue
from harp_ir.dialects.host import location_is_utf8
from harp_ir.findings import ASSUMPTIONS, RISKS, STATUSES, Assumption, Span  # noqa: F401
from harp_ir.frontend.names import MODULE_BASES

LOOPS = ("host.for", "host.while")
#: ops that start a new Python scope: a loop outside one does not run the code inside it
SCOPES = ("host.func", "host.class", "host.module")



def span(location: ir.Location) -> Span | None:
    """The source span of a location, read through the bindings' typed locations (a file
    location, or the one a name location wraps), so any file name comes back as it was
    given; None for a location without a file. A diagnostic's location comes untyped:
    rebuilding it from its attribute gives the typed one."""
    if type(location) is ir.Location:
        location = ir.Location.from_attr(location.attr)
    for _ in range(8):
        if isinstance(location, ir.FileLineColLoc):
            if not location_is_utf8(location):  # reading its name would abort the process
                return None
            return Span(location.filename, location.start_line, location.start_col,
                        location.end_line, location.end_col)
        location = getattr(location, "child_loc", None)  # NameLoc
        if location is None:
            break
    return None


def _walk(op: ir.Operation) -> Iterator[ir.Operation]:
    for region in op.regions:
        for block in region.blocks:
            for child in block.operations:
                child = child.operation
                yield child
                yield from _walk(child)


_WALK_CACHE: dict | None = None


def walk(op: ir.Operation) -> Iterator[ir.Operation] | list[ir.Operation]:
    """Every op nested in `op` (not `op` itself), in pre-order. Inside `cached_walks()`
    the lists are computed once, for a pipeline of passes that only annotate."""
    if _WALK_CACHE is None:
        return _walk(op)
    found = _WALK_CACHE.get(op)
    if found is None:
        found = _WALK_CACHE[op] = list(_walk(op))
    return found


#: the memo of every function `per_run` wraps (and other per-run tables), emptied when a
#: pipeline run ends
_PER_RUN: list[dict] = []


@contextmanager
def cached_walks():
    """Share walks (and facts computed from them) between passes that add attributes but
    never add or remove ops."""
    global _WALK_CACHE
    _WALK_CACHE = {}
    try:
        yield
    finally:
        _WALK_CACHE = None
        for memo in _PER_RUN:
            memo.clear()


def walks_cached() -> bool:
    """Whether a pipeline run sharing walks and facts (`cached_walks`) is open."""
    return _WALK_CACHE is not None


def per_run(key=None):
    """Memoise a fact computed from the IR for one pipeline run (inside `cached_walks()`,
    where passes only add attributes, so the answer cannot change), keyed by the
    arguments or by `key(*args)`; outside a run it is computed on every call."""
    def decorate(function):
        memo: dict = {}
        _PER_RUN.append(memo)

        @functools.wraps(function)
        def memoised(*args):
            if _WALK_CACHE is None:
                return function(*args)
            k = key(*args) if key is not None else args
            if k not in memo:
                memo[k] = function(*args)
            return memo[k]

        return memoised
    return decorate


def enclosing_loop(op: ir.Operation) -> ir.Operation | None:
    """The innermost host loop that runs `op` on each iteration, within op's own scope."""
    parent = op.parent
    while parent is not None and parent.name not in SCOPES:
        if parent.name in LOOPS:
            return parent
        parent = parent.parent
    return None


class AttributeKindError(ValueError):
    """An attribute of another kind than the analyses read it as (`qualname = 7` in a
    module from elsewhere): reported as an error at its op, never a traceback."""

    def __init__(self, op: ir.Operation, name: str, expected: str, found: ir.Attribute):
        super().__init__(f"'{op.name}' op attribute '{name}' must be {expected}, "
                         f"not {found}")
        self.op = op


def _attribute(op: ir.Operation, name: str, fits, expected: str) -> ir.Attribute | None:
    """`op`'s attribute `name` (None when it has none), which `fits` must accept: else an
    AttributeKindError saying it must be `expected`."""
    attrs = op.attributes
    if name not in attrs:
        return None
    attr = attrs[name]
    if not fits(attr):
        raise AttributeKindError(op, name, expected, attr)
    return attr


def _is_string(attr: ir.Attribute) -> bool:
    return isinstance(attr, ir.StringAttr)


def _is_strings(attr: ir.Attribute) -> bool:
    return isinstance(attr, ir.ArrayAttr) and all(isinstance(a, ir.StringAttr) for a in attr)


def _is_integer(attr: ir.Attribute) -> bool:
    return isinstance(attr, ir.IntegerAttr)


def string_attr(op: ir.Operation, name: str, default: str = "") -> str:
    """The text of a string attribute, `default` when `op` has none of that name."""
    attr = _attribute(op, name, _is_string, "a string attribute")
    return default if attr is None else attr.value


def strings_attr(op: ir.Operation, name: str) -> list[str]:
    """The texts of an array-of-strings attribute, [] when `op` has none of that name."""
    attr = _attribute(op, name, _is_strings, "an array of strings")
    return [] if attr is None else [a.value for a in attr]


def int_attr(op: ir.Operation, name: str, default: int | None = None) -> int | None:
    """The value of an integer attribute, `default` when `op` has none of that name."""
    attr = _attribute(op, name, _is_integer, "an integer attribute")
    return default if attr is None else attr.value


def describe_loop(loop: ir.Operation) -> str:
    """A loop as a message names it: "the `for epoch` loop (line 8)"."""
    where = span(loop.location)
    line = f" (line {where.line})" if where else ""
    if "harp.runner" in loop.attributes:  # a library runner's (`harp_ir.library_loops`)
        return f"the loop over batches in `{string_attr(loop, 'harp.runner')}(...)`{line}"
    if loop.name == "host.for":
        return f"the `for {string_attr(loop, 'target')}` loop{line}"
    return f"the `while` loop{line}"


def record_hint(op: ir.Operation, hint_id: str, message: str,
                assumptions: list[Assumption], moves: list[ir.Operation] = (),
                related: list[ir.Operation] = ()) -> None:
    """Attach a finding to `op` as `harp.hints`, so harp-opt output shows it. `moves`: the
    ops computing the other statements a fix must move with `op`'s, in order (their spans
    are kept, as `moves`). `related`: other places the message names, in any file of the
    program (the call in the loop that runs a helper's statement), kept as
    `related = [{file, span}]`. A hint in code the program as written never runs rests on
    a high-risk speculation that it does (`callgraph.never_runs`)."""
    from harp_ir import callgraph, library_loops

    if library_loops.synthetic(op):
        return  # a library's loop as harp models it: no code of the program to change
    unreached = callgraph.never_runs(op)
    if unreached is not None:
        assumptions = [*assumptions, unreached]
    fields = {
        "id": ir.StringAttr.get(hint_id),
        "message": ir.StringAttr.get(message),
        "assumptions": ir.ArrayAttr.get([a.to_attr() for a in assumptions]),
    }
    spans = [span(m.location) for m in moves]
    if spans and all(spans):  # line, col, end line, end col of each, in the hint's file
        fields["moves"] = ir.ArrayAttr.get([ir.DenseI64ArrayAttr.get(
            [s.line, s.col, s.end_line, s.end_col]) for s in spans])
    places = [span(r.location) for r in related if not same_op(r, op)]
    if places and all(places):
        fields["related"] = ir.ArrayAttr.get([ir.DictAttr.get({
            "file": ir.StringAttr.get(p.file),
            "span": ir.DenseI64ArrayAttr.get([p.line, p.col, p.end_line, p.end_col])})
            for p in places])
    entry = ir.DictAttr.get(fields)
    existing = list(op.attributes["harp.hints"]) if "harp.hints" in op.attributes and \
        isinstance(op.attributes["harp.hints"], ir.ArrayAttr) else []
    op.attributes["harp.hints"] = ir.ArrayAttr.get(existing + [entry])


#: host ops that compute a value from their operands alone
_VALUE_OPS = ("host.constant", "host.getattr", "host.getitem", "host.binop", "host.unop",
              "host.compare", "host.tuple", "host.list", "host.slice", "host.truth")


def loop_mutates(loop: ir.Operation) -> set[str]:
    """The names a loop's body writes (`harp.mutates`, recorded by the frontend)."""
    return set(strings_attr(loop, "harp.mutates"))


def defined_inside(value: ir.Value, loop: ir.Operation) -> bool:
    """Whether `value` is produced inside `loop` (a block argument or an op result)."""
    owner = value.owner
    op = owner.owner.operation if isinstance(owner, ir.Block) else owner.operation
    while op is not None:
        if op == loop:
            return True
        op = op.parent
    return False


def _loaded_slots(value: ir.Value, seen: set[str]) -> None:
    """The slots whose objects flow into `value` (through attributes, items, displays and
    call arguments)."""
    owner = value.owner
    if isinstance(owner, ir.Block):
        return
    op = owner.operation
    if op.name == "host.load":
        if not _immutable(value):  # `model(x.to(device))` cannot change `device`
            seen.add(string_attr(op, "name"))
    elif op.name in ("host.binop", "host.unop", "host.compare"):
        return  # arithmetic makes a new object: it holds no reference to its operands
    elif op.name == "host.call" and string_attr(op, "qualname") in FRESH_FACTORIES:
        return  # `torch.randn(B, Z)` is a new tensor: it holds neither B nor Z
    elif op.name == "host.call":
        # the result may hold the arguments (`zip(grads, [w])`), not the callee's receiver
        for v in list(op.operands)[1:]:
            _loaded_slots(v, seen)
    elif not op.regions:
        for v in op.operands:
            _loaded_slots(v, seen)


#: library calls whose result is a new object that nothing else refers to (not views, not
#: `from_numpy`, which shares the array's memory)
FRESH_FACTORIES = frozenset(f"torch.{n}" for n in (
    "zeros", "ones", "empty", "full", "zeros_like", "ones_like", "empty_like", "full_like",
    "rand", "randn", "randint", "randperm", "arange", "linspace", "eye", "tensor"))


def fresh_receiver(call: ir.Operation) -> bool:
    """Whether a method call's receiver is the result of a factory in this expression."""
    callee = producer(call.operands[0])
    if callee is None or callee.name != "host.getattr":
        return False
    recv = producer(callee.operands[0])
    return recv is not None and recv.name == "host.call" and \
        string_attr(recv, "qualname") in FRESH_FACTORIES


def loop_clobbers(loop: ir.Operation) -> set[str]:
    """The names a loop may change: those it writes (`harp.mutates`), and every object
    handed to a call that may mutate it (effect mutate or unknown, e.g.
    `opt.apply_gradients(zip(grads, [w]))` may change `w`)."""
    return loop_mutates(loop) | _changed_by_calls(loop)


def _changed_by_calls(loop: ir.Operation) -> set[str]:
    """The names whose objects a call in `loop` may change in place."""
    names: set[str] = set()
    for op in walk(loop):
        if op.name == "host.call" and string_attr(op, "effect", "unknown") in ("mutate",
                                                                             "unknown") \
                and not fresh_receiver(op):
            operands = list(op.operands)
            callee = producer(operands[0])
            if not string_attr(op, "harp.receiver") and callee is not None and \
                    string_attr(callee, "qualname"):
                operands = operands[1:]  # `torch.distributions.Normal(...)` leaves `torch` be
            for v in operands:
                _loaded_slots(v, names)
    return names


def _immutable(value: ir.Value) -> bool:
    """Whether no call can change `value` in place: a number or string (a constant, or a
    slot the frontend knows holds one), or a `torch.device`."""
    op = producer(value)
    if op is None:
        return False
    if op.name == "host.constant" or string_attr(op, "harp.kind") == "scalar":
        return True
    made = definition(value, enclosing_scope(op)) if op.name == "host.load" else op
    return made is not None and made.name == "host.call" and \
        string_attr(made, "qualname") in ("torch.device", "builtins.str", "builtins.int",
                                          "builtins.float")


def invariant_in(value: ir.Value, loop: ir.Operation, pure=("pure", "view"),
                 clobbered: set[str] | None = None) -> bool:
    """Whether `value` is the same on every iteration of `loop`: computed in the loop only
    from constants, slots the loop does not change (see loop_clobbers), and calls whose
    effect is in `pure` (speculated: no alias of a changed object is read)."""
    if not defined_inside(value, loop):
        return True
    owner = value.owner
    if isinstance(owner, ir.Block):
        return False  # the loop variable, or a with/except/case binding in the loop
    if clobbered is None:
        clobbered = loop_clobbers(loop)
    op = owner.operation
    if op.name == "host.load":
        if string_attr(op, "name") not in clobbered:
            return True
        store = invariant_store(op, loop)
        return store is not None and invariant_in(store.operands[0], loop, pure, clobbered)
    if op.name == "host.call" and string_attr(op, "effect") not in pure:
        return False
    if op.name not in _VALUE_OPS and op.name != "host.call":
        return False
    return all(invariant_in(v, loop, pure, clobbered) for v in op.operands)


#: ops whose first operand is changed in place when it is a loaded slot
_CHANGES_OPERAND = ("host.setitem", "host.setattr", "host.delitem", "host.delattr")


@per_run()
def _slot_index(loop: ir.Operation) -> tuple[dict, dict, set[str]]:
    """For `loop`: name -> the `host.store`s of it in the loop, name -> its `host.load`s,
    and the names the loop changes other than by a plain store (a call that mutates the
    object, an item or attribute store, an in-place operator, `del`)."""
    stores: dict[str, list[ir.Operation]] = {}
    loads: dict[str, list[ir.Operation]] = {}
    changed = _changed_by_calls(loop)
    for op in walk(loop):
        name = string_attr(op, "name")
        if op.name == "host.store":
            stores.setdefault(name, []).append(op)
        elif op.name == "host.load":
            loads.setdefault(name, []).append(op)
            for use in op.result.uses:
                reader = user(use)
                if reader.name in _CHANGES_OPERAND and use.operand_number == 0 or \
                        reader.name == "host.binop" and "inplace" in reader.attributes:
                    changed.add(name)
        elif name:  # `del x` and other writes of a slot by name
            changed.add(name)
    return stores, loads, changed


def invariant_store(load: ir.Operation, loop: ir.Operation) -> ir.Operation | None:
    """The one `host.store` in `loop` of the slot `load` reads, when it sets the slot on
    every iteration before the load runs (a statement of the loop's own body, before the
    one holding the load) and nothing else in the loop changes the slot: the load then
    reads what the store stored in the same iteration (reaching definitions, for the
    straight-line body of a structured loop)."""
    name = string_attr(load, "name")
    stores, _, changed = _slot_index(loop)
    if name in changed or len(stores.get(name, ())) != 1:
        return None
    store, loop = stores[name][0].operation, loop.operation
    statement = load.operation
    while statement.parent is not None and statement.parent.operation != loop:
        statement = statement.parent.operation
    if store.parent is None or store.parent.operation != loop or statement.parent is None:
        return None
    for region in loop.regions:
        for block in region.blocks:
            order = [o.operation for o in block.operations]
            if store in order:
                return store if statement in order and \
                    order.index(store) < order.index(statement) else None
    return None


def chain_stores(value: ir.Value, loop: ir.Operation) -> list[ir.Operation]:
    """The invariant stores in `loop` that `value` reads through slots (see
    invariant_store), earliest first: the statements that must move with it."""
    found: list[ir.Operation] = []

    def visit(v: ir.Value) -> None:
        op = producer(v)
        if op is None or not defined_inside(v, loop):
            return
        if op.name == "host.load":
            store = invariant_store(op, loop) \
                if string_attr(op, "name") in loop_mutates(loop) else None
            if store is not None and store not in found:
                visit(store.operands[0])
                found.append(store)
            return
        for operand in op.operands:
            visit(operand)

    visit(value)
    order = {op: i for i, op in enumerate(walk(loop))}
    return sorted(found, key=order.__getitem__)


def loops_around(op: ir.Operation) -> list[ir.Operation]:
    """The loops enclosing `op` within its scope, innermost first."""
    loops = []
    parent = op.parent
    while parent is not None and parent.name not in SCOPES:
        if parent.name in LOOPS:
            loops.append(parent)
        parent = parent.parent
    return loops


def value_name(value: ir.Value) -> str:
    """A value as source text where it is a name or attribute chain (`self.fc.weight`)."""
    owner = value.owner
    if isinstance(owner, ir.Block):
        return ""
    op = owner.operation
    if op.name == "host.load":
        return string_attr(op, "name")
    if op.name == "host.getattr":
        base = value_name(op.operands[0])
        return f"{base}.{string_attr(op, 'attr')}" if base else ""
    if op.name == "host.call":
        callee = value_name(op.operands[0])
        return f"{callee}(...)" if callee else ""
    return ""


def receiver(call: ir.Operation) -> ir.Value | None:
    """`x` of a method call `x.m(...)` (the callee is an attribute of it), else None."""
    callee = producer(call.operands[0]) if call.name == "host.call" else None
    return callee.operands[0] if callee is not None and callee.name == "host.getattr" \
        else None


def producer(value: ir.Value) -> ir.Operation | None:
    """The op that defines `value`, or None for a block argument."""
    owner = value.owner
    return None if isinstance(owner, ir.Block) else owner.operation


def user(use: ir.OpOperand) -> ir.Operation:
    """The op that uses a value at `use` (the bindings give an OpView or an Operation)."""
    owner = use.owner
    return owner.operation if hasattr(owner, "operation") else owner


def value_kind(value: ir.Value) -> str:
    """The `harp.kind` the frontend recorded for `value` ("" when unknown). A tensor the
    frontend only speculated (a model's call is assumed to return one) that the whole
    program shows is a container or a constant (`h, l, outs = model(x)`, where the model's
    `forward` returns a list built by `append` for `outs`) is unknown instead."""
    op = producer(value)
    kind = string_attr(op, "harp.kind") if op is not None else ""
    if kind == "tensor" and string_attr(op, "harp.kind_status") == "speculated" and \
            _program_refutes_tensor(value):
        return ""
    return kind


#: ops whose result is never a tensor: displays, constants, comprehensions
_NOT_TENSOR_OPS = ("host.list", "host.tuple", "host.dict", "host.set", "host.constant",
                   "host.comprehension")


@per_run(key=lambda value: value)
def _program_refutes_tensor(value: ir.Value) -> bool:
    """Whether every definition of `value` the program shows is a display, a constant or a
    comprehension: through a local's stores, a slice (`outs[-1:]`), a call of the
    program's functions (a model whose `forward` returns a list of feature maps), an
    unpacking of a display, and an unpacking of a call of the program's functions (the same
    place of every tuple of that size they return: one of another size would raise). False
    as soon as one definition is anything else."""
    return _refutes(value, set(), 0)


def chosen_values(value: ir.Value) -> list[ir.Value]:
    """The values a conditional expression (`"cuda" if c else "cpu"`, a `host.if` with
    results) yields for `value` on each branch; [] for any other value."""
    op = producer(value)
    if op is None or op.name != "host.if" or not op.results:
        return []
    found = []
    for region in op.regions:
        last = list(region.blocks[0].operations)[-1].operation
        if last.name != "hostcf.yield" or len(last.operands) <= value.result_number:
            return []
        found.append(last.operands[value.result_number])
    return found


def _refutes(value: ir.Value, visiting: set, depth: int) -> bool:
    op = producer(value)
    if op is None or depth > 8:
        return False
    if op.name in _NOT_TENSOR_OPS:
        return True
    if op.name == "host.getitem":
        index = producer(op.operands[1])
        return index is not None and index.name == "host.slice" and \
            _refutes(op.operands[0], visiting, depth + 1)
    if op.name == "host.load":
        if op in visiting:
            return True  # the other stores decide
        visiting.add(op)
        reached = reaching_store(op)
        stores = [reached] if reached is not None else \
            _stores(enclosing_scope(op)).get(string_attr(op, "name"), [])
        return bool(stores) and all(_refutes(_unpacked(s.operands[0]), visiting, depth + 1)
                                    for s in stores)
    if op.name == "host.call":  # `features = self.fpn(...)`, whose forward returns a list
        made = [producer(r) for r in returned_values(op)]
        return bool(made) and all(t is not None and _refutes(t.result, visiting, depth + 1)
                                  for t in made)
    if op.name != "host.unpack" or int_attr(op, "starred") != -1:
        return False
    if (element := packed_element(value)) is not None:
        return _refutes(element, visiting, depth + 1)
    source = producer(op.operands[0])
    if source is None or source.name != "host.call":
        return False
    made = [producer(r) for r in returned_values(source)]
    if not made or any(t is None or t.name != "host.tuple" for t in made):
        return False
    fits = [t for t in made if len(t.operands) == len(op.results)]  # another size raises
    return bool(fits) and all(_refutes(t.operands[value.result_number], visiting, depth + 1)
                              for t in fits)


#: tensor methods whose result is a tensor again (a dtype, a device, a view)
TENSOR_TO_TENSOR = frozenset({"long", "float", "double", "int", "half", "bool", "to", "cuda",
                              "cpu", "detach", "clone", "view", "reshape", "squeeze",
                              "unsqueeze", "contiguous", "type", "abs", "round", "floor"})


def tensor_valued(value: ir.Value, budget: int = 400) -> bool:
    """Whether `value` is a tensor by what the program shows, followed through the
    program: the frontend's kind; every store of a local that can reach the load (the
    one before it in straight-line code, else all of them: a loop-carried
    `h, l = model(x, l)`); arithmetic with a tensor; an element or slice of one; a tensor
    method that returns one (`.long()`, `.to(device)`); a function of the program whose
    every `return` gives a tensor, or a tensor at that place of the tuple it returns (`h,
    l = self.reset()`); a parameter every call passes a tensor for (`extract_patch(x, l)`
    called with `foveate`'s `l`, called with the model's, called with the loop's). A local met again
    while it is being answered (`x = x + 1` in a loop) is left to its other stores; the
    search gives up (False) after `budget` values."""
    return _tensor_valued(value, {"budget": budget, "visiting": set()})


def _tensor_valued(value: ir.Value, state: dict) -> bool:
    kind = value_kind(value)
    state["budget"] -= 1
    if kind or state["budget"] < 0:
        return kind == "tensor"
    op = producer(value)
    if op is None:
        return False
    if op.name == "host.unpack" and _batch_field(value):
        return True
    visiting = state["visiting"]
    if op.name == "host.load":
        if op in visiting:
            return True
        visiting.add(op)
        try:
            passed = passed_arguments(value)
            if passed:
                return all(_tensor_valued(arg, state) for arg, _ in passed)
            reached = reaching_store(op)
            stores = [reached] if reached is not None else \
                _stores(enclosing_scope(op)).get(string_attr(op, "name"), [])
            return bool(stores) and all(_tensor_valued(_unpacked(st.operands[0]), state)
                                        for st in stores)
        finally:
            visiting.discard(op)
    if op.name == "host.unpack":  # `h, l = f(...)`: the same place of what f returns
        source = producer(op.operands[0])
        place = value.result_number
        if (element := packed_element(value)) is not None:
            return _tensor_valued(element, state)
        if source is None or source.name != "host.call":
            return False
        returned = returned_values(source)
        return bool(returned) and all(
            (t := producer(r)) is not None and t.name == "host.tuple" and
            place < len(t.operands) and _tensor_valued(t.operands[place], state)
            for r in returned)
    if op.name == "host.binop":
        return any(_tensor_valued(v, state) for v in op.operands)
    if op.name == "host.getitem":  # `t[i]`, `t[:, 0]`: an element or a slice of a tensor is one
        return _tensor_valued(op.operands[0], state)
    if op.name != "host.call":
        return False
    callee = producer(op.operands[0])
    if callee is not None and callee.name == "host.getattr" and \
            string_attr(callee, "attr") in TENSOR_TO_TENSOR:
        return _tensor_valued(callee.operands[0], state)
    returned = returned_values(op)
    return bool(returned) and all(_tensor_valued(r, state) for r in returned)


def packed_element(value: ir.Value) -> ir.Value | None:
    """`a, b = x.cuda(), y.cuda()`: the element of the display that the unpacked `value`
    takes (`y.cuda()` for `b`); None when `value` is not unpacked from a display of as
    many elements."""
    op = producer(value)
    if op is None or op.name != "host.unpack":
        return None
    source = producer(op.operands[0])
    if source is None or source.name not in ("host.tuple", "host.list") or \
            len(list(source.operands)) != len(op.results):
        return None
    return source.operands[value.result_number]


def _batch_field(value: ir.Value) -> bool:
    """Whether `value` is a field of a batch a `for` loop takes from a data loader (`x` in
    `for x, y in loader` or `for i, (x, y) in enumerate(loader)`): the default collate
    makes tensors of arrays, tensors and numbers."""
    found = loader_batch_place(value)
    return found is not None and len(found) >= 1


def loader_batch_place(value: ir.Value) -> list[int] | None:
    """Where `value` sits in a batch a `for` loop takes from a data loader: the places of
    the unpacks from the value outwards (`[]` for the whole batch, `[0]` for `x` in
    `for x, y in loader`), `enumerate`'s (index, batch) pair left out; None when it is not
    part of such a batch (`i` of `enumerate` is not)."""
    from harp_ir import callgraph

    places = []
    while (op := producer(value)) is not None and op.name == "host.unpack":
        places.append(value.result_number)
        value = op.operands[0]
    block = value.owner
    loop = block.owner if isinstance(block, ir.Block) else None
    if loop is None or loop.name != "host.for" or not callgraph.over_data(loop):
        return None
    made = producer(loop.operands[0])
    if made is not None and made.name == "host.call" and \
            string_attr(made, "qualname") == "builtins.enumerate":
        if not places or places[-1] != 1:
            return None  # the index, or the (index, batch) pair itself
        places = places[:-1]
    return places


#: calls that read a tensor's value on the host (a wait on the device)
_HOST_READ_METHODS = ("item", "tolist")
_HOST_READ_BUILTINS = ("builtins.int", "builtins.float", "builtins.bool")


@per_run()
def element_reads(loop: ir.Operation) -> list[ir.Operation]:
    """The elements of tensors the loop reads on the host, one per iteration: `t[i]` (or
    the element `v` of `for v in t`) converted with `.item()`, `int()`, `float()`, or used
    as an index or a slice bound of another subscript (`x[i, start[i]:end[i]]`: Python
    asks the tensor for an int). Each is a wait on the device; one `.tolist()` of the
    whole tensor before the loop reads them all at once. A tensor a factory made on the
    host (`ix = torch.randint(...)`) waits for nothing."""
    if loop.name != "host.for":
        return []
    index, item, iterated = loop_names(loop)
    found = []
    for op in walk(loop):
        element = None
        if op.name == "host.getitem" and _index_holds(op.operands[1], index) and \
                tensor_valued(op.operands[0]):
            element = op
        elif op.name == "host.load" and string_attr(op, "name") == item and \
                tensor_valued(iterated) and not _iterates_chunks(iterated):
            element = op
        whole = element.operands[0] if element is not None and \
            element.name == "host.getitem" else iterated
        if element is not None and not on_cpu(whole) and \
                any(_read_on_host(use) for use in element.result.uses):
            found.append(element)
    return found


def loop_element(value: ir.Value, loop: ir.Operation) -> bool:
    """Whether `value` is an element of a tensor `loop` visits one per iteration (`t[i]`
    with `i` the loop's index, or `v` of `for v in t`)."""
    if loop.name != "host.for":
        return False
    index, item, iterated = loop_names(loop)
    op = producer(value)
    if op is None:
        return False
    if op.name == "host.getitem":
        return _index_holds(op.operands[1], index) and tensor_valued(op.operands[0])
    return op.name == "host.load" and string_attr(op, "name") == item and \
        tensor_valued(iterated) and not _iterates_chunks(iterated)


def _iterates_chunks(iterable: ir.Value) -> bool:
    """Whether a loop over `iterable` visits pieces of a tensor, not numbers: the chunks
    of `x.split(64)` or `x.chunk(4)`, or the rows of a tensor of two or more dimensions.
    A piece used as an index gathers on the device; Python reads no number from it."""
    made = producer(iterable)
    if made is not None and made.name == "host.call" and \
            string_attr(made, "method") in ("split", "chunk"):
        return True
    from harp_ir.shapes import tensor_rank

    rank = tensor_rank(iterable)
    return rank is not None and rank >= 2


def loop_targets(loop: ir.Operation) -> list[str]:
    """The names a `for` loop's target spells, in order (`for i, v in ...` gives ["i",
    "v"]); a nested target's parts are not split apart."""
    text = string_attr(loop, "target").strip()
    if text.startswith("(") and text.endswith(")") and _top_level_commas(text[1:-1]) is not None:
        text = text[1:-1]  # `for (i, v) in ...`
    cuts = _top_level_commas(text) or []
    parts = [text[a + 1:b] for a, b in zip([-1, *cuts], [*cuts, len(text)], strict=True)]
    return [part.strip() for part in parts if part.strip()]


def _top_level_commas(text: str) -> list[int] | None:
    """The places of the commas of `text` outside brackets; None when its brackets do not
    balance (`(i, v), (j` is not one parenthesised target)."""
    depth, found = 0, []
    for at, char in enumerate(text):
        depth += char in "([{"
        depth -= char in ")]}"
        if depth < 0:
            return None
        if char == "," and depth == 0:
            found.append(at)
    return found if depth == 0 else None


def loop_names(loop: ir.Operation) -> tuple[str, str, ir.Value]:
    """(the name holding the index, the name holding the element, what the loop iterates
    by element) of a `for` loop: `for i, v in enumerate(t)` gives ("i", "v", t); any
    other loop its one target for both, and its iterable."""
    target = string_attr(loop, "target")
    names = loop_targets(loop)
    made = producer(loop.operands[0])
    if len(names) == 2 and all(n.isidentifier() for n in names) and made is not None and \
            string_attr(made, "qualname") == "builtins.enumerate" and len(made.operands) == 2:
        return names[0], names[1], made.operands[1]
    return target, target, loop.operands[0]


def _index_holds(index: ir.Value, var: str) -> bool:
    """`i`, or a tuple with `i` in it (`start[i, 1]`)."""
    made = producer(index)
    if made is None:
        return False
    if made.name == "host.load":
        return string_attr(made, "name") == var
    return made.name == "host.tuple" and any(
        (p := producer(v)) is not None and p.name == "host.load" and
        string_attr(p, "name") == var for v in made.operands)


def _read_on_host(use: ir.OpOperand) -> bool:
    """Whether a use of a tensor element makes Python read its value."""
    op = user(use)
    if op.name == "host.slice":
        return True  # a slice bound: `__index__`
    if op.name == "host.tuple":  # an index of a subscript: `x[i, start[i]]`
        return any(user(u).name == "host.getitem" and u.operand_number == 1
                   for u in op.result.uses)
    if op.name == "host.getitem" and use.operand_number == 1:
        return True
    if op.name == "host.getattr" and string_attr(op, "attr") in _HOST_READ_METHODS:
        return True
    return op.name == "host.call" and use.operand_number > 0 and \
        string_attr(op, "qualname") in _HOST_READ_BUILTINS


def returned_values(call: ir.Operation) -> list[ir.Value]:
    """What the program functions `call` may run return, at each `return` with a value
    (`self.reset()`: the method, and its overrides in subclasses); [] when the callee is
    not the program's or a `return` gives nothing."""
    funcs = called_functions(call)
    returns = [r for func in funcs for r in walk(func) if r.name == "hostcf.return" and
               same_op(enclosing_scope(r), func)]
    if not returns or any(not r.operands for r in returns):
        return []
    return [r.operands[0] for r in returns]


def call_arguments(op: ir.Operation) -> list[tuple[str, ir.Value]]:
    """(keyword, value) for each argument of a host.call; "" for positional ones."""
    return list(zip(strings_attr(op, "kwnames"), list(op.operands)[1:], strict=True))


def in_compiled_function(op: ir.Operation, compilers=("tensorflow.function",
                                                      "torch.compile", "torch.jit.script")
                         ) -> bool:
    """Whether `op` is inside a function decorated with one of `compilers`."""
    parent = op.parent
    while parent is not None:
        if parent.name == "host.func" and any(
                d in compilers for d in strings_attr(parent, "harp.decorators")):
            return True
        parent = parent.parent
    return False


def loop_runs(loop: ir.Operation) -> Assumption:
    """The assumption every in-loop hint rests on, and every fix that moves code out of a
    loop needs (before the loop the code would run even when the loop runs zero times):
    proved where the program shows the loop runs at least once."""
    shown = _surely_runs(loop)
    if shown:
        return Assumption("loop-runs", describe_loop(loop), "low", "proved", shown)
    return Assumption("loop-runs", describe_loop(loop), "low", "speculated",
                      "a loop is assumed to run at least once")


def int_at_least(value: ir.Value, depth: int = 0) -> int | None:
    """A lower bound on an int the program computes: an int literal, `max(...)` of
    anything with a bound (`max(1, int(6 * scale))`), or a name stored once in its
    scope from one."""
    op = producer(value)
    if op is not None and op.name == "host.load" and depth < 4:
        stored = stored_once(op)
        return int_at_least(stored, depth + 1) if stored is not None else None
    if op is not None and op.name == "host.call" and depth < 4 and \
            string_attr(op, "qualname") == "builtins.max" and len(op.operands) > 2:
        bounds = [b for v in list(op.operands)[1:] if (b := int_at_least(v, depth + 1)) is not None]
        return max(bounds) if bounds else None
    found = constant_value(value)
    return found if isinstance(found, int) and not isinstance(found, bool) else None


def iterations_at_least(loop: ir.Operation) -> int:
    """A lower bound on how many times a `for` over `range(n)` / `range(a, n)` runs, from
    what the program says about `a` and `n` (0 when it says nothing)."""
    call = producer(loop.operands[0]) if loop.name == "host.for" else None
    if call is None or string_attr(call, "qualname") != "builtins.range" or \
            not 2 <= len(call.operands) <= 3:
        return 0
    bounds = list(call.operands)[1:]
    upper = int_at_least(bounds[-1])
    lower = constant_value(bounds[0]) if len(bounds) == 2 else 0
    return max(upper - lower, 0) if upper is not None and isinstance(lower, int) else 0


def iterations_at_most(loop: ir.Operation) -> int | None:
    """An upper bound on how many times a `for` loop runs when the code fixes it: a
    `range` of int literals, or a list or tuple display; None otherwise."""
    made = producer(loop.operands[0]) if loop.name == "host.for" else None
    if made is None:
        return None
    if made.name in ("host.list", "host.tuple"):
        return len(made.operands)
    if string_attr(made, "qualname") != "builtins.range" or not 2 <= len(made.operands) <= 4:
        return None
    bounds = [_constant_int(v) for v in list(made.operands)[1:]]
    if None in bounds:
        return None
    return len(range(*bounds))


def steps_at_most(loop: ir.Operation) -> int | None:
    """An upper bound on how many times the body of `loop` runs in all, with the loops
    around it in its function (40 for `for step in range(40)` at a script's top level);
    None when one of them is unbounded or the function is called from elsewhere."""
    if enclosing_scope(loop).name == "host.func":
        return None  # its callers may run it any number of times
    total = 1
    for each in [loop, *loops_around(loop)]:
        bound = iterations_at_most(each)
        if bound is None:
            return None
        total *= bound
    return total


def _unpacked(value: ir.Value) -> ir.Value:
    """The display element an unpacking target receives (`n, d = 100, 3` gives `n` the
    100), else `value` itself."""
    op = producer(value)
    if op is None or op.name != "host.unpack" or int_attr(op, "starred") != -1:
        return value
    display = producer(op.operands[0])
    index = next(i for i, r in enumerate(op.results) if r == value)
    if display is not None and display.name in ("host.tuple", "host.list") and \
            len(display.operands) == len(op.results):
        return display.operands[index]
    return value


def stored_once(load: ir.Operation) -> ir.Value | None:
    """What a name is bound to when its scope stores it once (through an unpacking of a
    display), else None. A global read in a function is what the module stores once, when
    no function rebinds it (`global n`)."""
    name = string_attr(load, "name")
    scope = enclosing_scope(load)
    if string_attr(load, "scope") == "global" and scope.name != "host.module":
        module = host_module(load)
        if module is None or name in _rebound_globals(module):
            return None
        scope = module
    stores = _stores(scope).get(name, [])
    return _unpacked(stores[0].operands[0]) if len(stores) == 1 else None


def stored_values(load: ir.Operation) -> list[ir.Value]:
    """Every value a local's scope stores in the name `load` reads, an empty display
    (`batch = []`, set before the branches that fill it) left out: what it can hold when
    read; [] for a global or when nothing is stored."""
    if string_attr(load, "scope"):
        return []
    stores = _stores(enclosing_scope(load)).get(string_attr(load, "name"), [])
    values = [_unpacked(s.operands[0]) for s in stores]
    return [v for v in values if not ((made := producer(v)) is not None and
                                      made.name in ("host.list", "host.tuple") and
                                      not made.operands)]


@per_run()
def _rebound_globals(module: ir.Operation) -> frozenset[str]:
    """The names a function of the module rebinds through a `global` declaration."""
    return frozenset(string_attr(o, "name") for o in walk(module)
                     if o.name == "host.store" and string_attr(o, "scope") == "global")


def unit_slice(index: ir.Operation) -> str:
    """The name `a` when the `host.slice` `index` is `a:a + 1` (or `a:1 + a`) with no step:
    one element, the dimension kept; "" otherwise."""
    lower, upper = producer(index.operands[0]), producer(index.operands[1])
    if lower is None or lower.name != "host.load" or upper is None or \
            upper.name != "host.binop" or string_attr(upper, "op") != "add" or \
            constant_value(index.operands[2]) is not None:
        return ""
    name = string_attr(lower, "name")
    loads = [producer(v) for v in upper.operands]
    for load, one in ((loads[0], upper.operands[1]), (loads[1], upper.operands[0])):
        if load is not None and load.name == "host.load" and \
                string_attr(load, "name") == name and constant_value(one) == 1:
            return name
    return ""


def _constant_int(value: ir.Value) -> int | None:
    """An int literal, or a name stored once in its scope from one."""
    op = producer(value)
    if op is not None and op.name == "host.load":
        value = stored_once(op)
    found = constant_value(value) if value is not None else NOT_CONSTANT
    return found if isinstance(found, int) and not isinstance(found, bool) else None


def setting_int(value: ir.Value, depth: int = 0) -> int | None:
    """An int the program states for `value`, when it is a literal or a setting's default:
    a name stored once from one, `self.x` its class stores once from one, a parameter's
    default (`def __init__(self, policy_freq=2)`), or `args.x` of `parser.parse_args()`
    with `add_argument("--x", default=1)`. A setting can be changed when the program runs:
    what this gives is the value a run gets unless told otherwise."""
    found = _constant_int(value)
    op = producer(value)
    if found is not None or op is None or depth > 4:
        return found
    if op.name == "host.getattr":
        cls = self_class(op.operands[0])
        if cls is not None:
            stores = _attribute_stores(cls).get(string_attr(op, "attr"), [])
            return setting_int(stores[0].operands[1], depth + 1) if len(stores) == 1 else None
        found = _argument_default(op)
        return found if found is not None else _settings_default(op)
    if op.name == "host.load":
        stored = stored_once(op)
        if stored is not None and producer(stored) is None:
            return _parameter_default(op, stored)
        if stored is not None:
            return setting_int(stored, depth + 1)
    return None


def capacity(value: ir.Value, depth: int = 0) -> tuple[int, list[ir.Operation]] | None:
    """(the most items the container whose size `value` is can hold, the ops that grow
    it), when the program states the bound: `len(self.buffer)` (or a property returning
    it) where the class makes `self.buffer = deque(maxlen=n)`, or trims it whenever its
    length exceeds a setting (`while len(self.buffer) > self.capacity:
    self.buffer.pop(0)`); `self.size` the class keeps as `min(self.size + 1,
    self.max_size)`. Growth ops: `append`/`extend`/`+=` of the container, the stores of
    the counter. None when the bound is unstated."""
    op = producer(value)
    if op is None or depth > 4:
        return None
    if op.name == "host.call" and string_attr(op, "qualname") == "builtins.len" and \
            len(op.operands) == 2:
        return _container_capacity(op.operands[1])
    if op.name != "host.getattr":
        return None
    cls = self_class(op.operands[0])
    if cls is None:
        return None
    attr = string_attr(op, "attr")
    returned = _property_value(cls, attr)
    if returned is not None:
        return capacity(returned, depth + 1)
    bounds, grows = set(), []
    for store in _attribute_stores(cls).get(attr, []):
        made = producer(store.operands[1])
        if made is not None and string_attr(made, "qualname") == "builtins.min" and \
                len(made.operands) == 3:  # `min(self.size + 1, self.max_size)`
            bounds.add(next((b for v in made.operands[1:]
                             if (b := setting_int(v)) is not None), None))
            grows.append(store)
        elif not isinstance(constant_value(_unpacked(store.operands[1])), int):
            return None  # a reset to a number is no growth; anything else is unbounded
    bound = bounds.pop() if len(bounds) == 1 else None
    return (bound, grows) if bound is not None else None


#: methods that add items to a list or deque
_GROWS = frozenset({"append", "appendleft", "extend", "insert"})


def _container_capacity(container: ir.Value) -> tuple[int, list[ir.Operation]] | None:
    """(capacity, growth ops) of `self.x` by what its class does: made as
    `deque(maxlen=n)`, or trimmed by a comparison of its length with a setting."""
    get = producer(container)
    cls = self_class(get.operands[0]) if get is not None and get.name == "host.getattr" \
        else None
    if cls is None:
        return None
    attr = string_attr(get, "attr")
    bound = None
    for store in _attribute_stores(cls).get(attr, []):
        made = producer(store.operands[1])
        if made is not None and string_attr(made, "qualname") == "collections.deque":
            maxlen = dict(call_arguments(made)).get("maxlen")
            bound = setting_int(maxlen) if maxlen is not None else None
            break
    else:
        bound = next((setting_int(c.operands[1]) for c in walk(cls)
                      if c.name == "host.compare" and len(c.operands) == 2 and
                      strings_attr(c, "ops") in (["gt"], ["ge"]) and
                      _length_of(c.operands[0], cls, attr)), None)
    if bound is None:
        return None
    grows = [o for o in walk(cls) if o.name == "host.call" and
             string_attr(o, "method") in _GROWS and _self_attribute(receiver(o), cls, attr)
             or o.name == "host.setattr" and string_attr(o, "attr") == attr and
             _self_attribute(o.operands[0], cls, None) and
             (made := producer(o.operands[1])) is not None and made.name == "host.binop" and
             "inplace" in made.attributes]
    return bound, grows


def _self_attribute(value: ir.Value | None, cls: ir.Operation, attr: str | None) -> bool:
    """Whether `value` is `self.attr` in a method of `cls` (`self` itself when attr is
    None)."""
    if value is None:
        return False
    if attr is None:
        return same_op(self_class(value), cls)
    get = producer(value)
    return get is not None and get.name == "host.getattr" and \
        string_attr(get, "attr") == attr and same_op(self_class(get.operands[0]), cls)


def _length_of(value: ir.Value, cls: ir.Operation, attr: str, depth: int = 0) -> bool:
    """Whether `value` is `len(self.attr)` or a property of `cls` returning it."""
    op = producer(value)
    if op is not None and op.name == "host.call" and \
            string_attr(op, "qualname") == "builtins.len" and len(op.operands) == 2:
        return _self_attribute(op.operands[1], cls, attr)
    if op is None or op.name != "host.getattr" or depth > 4 or \
            not same_op(self_class(op.operands[0]), cls):
        return False
    returned = _property_value(cls, string_attr(op, "attr"))
    return returned is not None and _length_of(returned, cls, attr, depth + 1)


def _property_value(cls: ir.Operation, name: str) -> ir.Value | None:
    """What the `@property` `name` of `cls` (or of a base) returns, when it has one
    `return`; None when `name` is no such property."""
    prop = method_of(cls, name)
    if prop is None or "property" not in strings_attr(prop, "harp.decorators"):
        return None
    returned = [r for r in walk(prop) if r.name == "hostcf.return" and
                same_op(enclosing_scope(r), prop) and len(r.operands) == 1]
    return returned[0].operands[0] if len(returned) == 1 else None


def _parameter_default(load: ir.Operation, argument: ir.Value) -> int | None:
    """The int default of the parameter `argument` (a block argument of the function
    reading it), when the function has no keyword-only parameters (then the defaults line
    up with its last positional parameters, before any `*args` or `**kwargs`)."""
    func = enclosing_scope(load)
    block = argument.owner
    if func.name != "host.func" or not isinstance(block, ir.Block):
        return None
    kinds = strings_attr(func, "arg_kinds")
    if "kwonly" in kinds:
        return None
    # `*args` and `**kwargs` come after the positional parameters and take no default
    positional = sum(1 for k in kinds if k not in ("vararg", "kwarg"))
    index = list(block.arguments).index(argument)
    defaults = list(func.operands)
    first = positional - len(defaults)
    return _constant_int(defaults[index - first]) if first <= index < positional else None


def _parsed_arguments(value: ir.Value, depth: int = 0) -> bool:
    """Whether `value` is the result of `parser.parse_args()`: bound once to it, or a
    parameter every call passes such a value for (`Agent(args)`), an attribute its class
    stores once from one (`self.args = args`), or what a program function returns at its
    every `return` (`args = get_args()`)."""
    made = producer(value)
    if made is None or depth >= 6:
        return False
    if made.name == "host.load":
        bound = stored_once(made)
        if bound is not None and producer(bound) is None:
            passed = passed_arguments(value) or _constructor_arguments(made, bound)
            return bool(passed) and all(_parsed_arguments(a, depth + 1) for a, _ in passed)
        return bound is not None and _parsed_arguments(bound, depth + 1)
    if made.name == "host.getattr":
        cls = self_class(made.operands[0])
        stores = _attribute_stores(cls).get(string_attr(made, "attr"), []) if cls else []
        return len(stores) == 1 and _parsed_arguments(stores[0].operands[1], depth + 1)
    if made.name != "host.call":
        return False
    if string_attr(made, "method") == "parse_args":
        return True
    returned = returned_values(made)
    return bool(returned) and all(_parsed_arguments(r, depth + 1) for r in returned)


def _constructor_arguments(load: ir.Operation, argument: ir.Value
                           ) -> list[tuple[ir.Value, ir.Operation]]:
    """What each construction of a program class passes for a parameter of its `__init__`
    (`Agent(args)` for `def __init__(self, args)`), by position; [] when unknown."""
    func = enclosing_scope(load)
    cls = func.parent
    if func.name != "host.func" or string_attr(func, "sym_name") != "__init__" or \
            cls is None or cls.name != "host.class" or \
            not isinstance(argument.owner, ir.Block):
        return []
    position = list(argument.owner.arguments).index(argument) - 1  # after `self`
    found = []
    for made, op in _constructions(program_of(func)):
        if not same_op(made, cls):
            continue
        args = call_arguments(op)
        if any(k.startswith("*") for k, _ in args):
            return []
        positional = [v for k, v in args if not k]
        if position >= len(positional):
            return []
        found.append((positional[position], op))
    return found


def _argument_default(attribute: ir.Operation) -> int | None:
    """`args.x` where `args` is bound once to `....parse_args()`: the int `default=` of the
    program's `add_argument("--x", ...)` (dashes in the flag are underscores in `x`)."""
    if not _parsed_arguments(attribute.operands[0]):
        return None
    found = _added_argument(attribute)
    default = found[1].get("default") if found is not None else None
    return _constant_int(default) if default is not None else None


def _added_argument(attribute: ir.Operation) -> tuple[str, dict] | None:
    """(the flag, the keyword arguments) of the program's `add_argument("--x", ...)` that
    `args.x` reads (dashes in the flag are underscores in `x`); None when there is none."""
    name = string_attr(attribute, "attr")
    for op in walk(program_of(attribute)):
        if op.name != "host.call" or string_attr(op, "method") != "add_argument":
            continue
        args = call_arguments(op)
        flags = [constant_value(v) for k, v in args if not k]
        flag = next((f for f in flags if isinstance(f, str) and
                     f.lstrip("-").replace("-", "_") == name), None)
        if flag is not None:
            return flag, dict(args)
    return None


#: calls that parse the command line into an instance of the settings class they are given
_SETTINGS_PARSERS = ("tyro.cli",)


def _settings_default(attribute: ir.Operation) -> int | None:
    """`args.x` where `args` is bound once to an instance of a settings class of the
    program (`args = tyro.cli(Args)`, or `Args()`): the int literal the class body binds
    `x` to (a dataclass field, `x: int = 2`), when no method of the class and no store
    `args.x = ...` rebinds it."""
    load = producer(attribute.operands[0])
    bound = stored_once(load) if load is not None and load.name == "host.load" else None
    made = producer(bound) if bound is not None else None
    if made is None or made.name != "host.call":
        return None
    scope = host_module(load) or enclosing_scope(load)
    if string_attr(made, "qualname") in _SETTINGS_PARSERS:
        given = next((v for k, v in call_arguments(made) if not k), None)
        cls = definition(given, scope) if given is not None else None
    else:
        cls = _constructed_class(made, scope)
    name = string_attr(attribute, "attr")
    if cls is None or cls.name != "host.class" or name in _attribute_stores(cls) or any(
            o.name == "host.setattr" and string_attr(o, "attr") == name and
            value_name(o.operands[0]) == string_attr(load, "name")
            for o in walk(program_of(attribute))):
        return None
    stores = [o.operation for o in cls.regions[0].blocks[0].operations
              if o.operation.name == "host.store" and string_attr(o.operation, "name") == name]
    return _constant_int(stores[0].operands[0]) if len(stores) == 1 else None


def _surely_runs(loop: ir.Operation) -> str:
    """Why `loop` surely runs at least once ("" when the program does not show it): a
    `for` over a non-empty display, over `range` whose stop is at least one step past a
    constant start (`range(100)`, `range(0, n, batch)` with `n = 1000`,
    `range(max(1, epochs))`), or `while True`."""
    if loop.name == "host.while":
        region = loop.regions[0]
        terminator = list(region.blocks[0].operations)[-1] if region.blocks else None
        condition = terminator.operands[0] if terminator is not None and \
            terminator.operands else None
        truth = producer(condition) if condition is not None else None
        if truth is not None and truth.name == "host.truth":
            condition = truth.operands[0]
        return "`while True` runs until a `break`" if condition is not None and \
            constant_value(condition) is True else ""
    iterable = producer(loop.operands[0])
    if iterable is None:
        return ""
    if iterable.name in ("host.list", "host.tuple") and iterable.operands:
        return f"it iterates over {len(iterable.operands)} listed values"
    if iterable.name == "host.call" and string_attr(iterable, "qualname") == "builtins.range":
        args = list(iterable.operands)[1:]
        if not 1 <= len(args) <= 3 or (len(args) == 3 and (_constant_int(args[2]) or 0) <= 0):
            return ""
        start = _constant_int(args[0]) if len(args) >= 2 else 0
        stop = int_at_least(args[1] if len(args) >= 2 else args[0])
        if start is not None and stop is not None and stop > start:
            times = stop - start if len(args) < 3 else 1
            return "`range` runs at least " + ("once" if times == 1 else f"{times} times")
    return ""


#: `Session.run` of TF1: what runs a built graph
SESSION_RUN = "tensorflow.compat.v1.Session.run"
NOT_CONSTANT = object()


def constant_value(value: ir.Value):
    """The Python value of a `host.constant` (None for None), else NOT_CONSTANT."""
    op = producer(value)
    if op is None or op.name != "host.constant":
        return NOT_CONSTANT
    return getattr(op.attributes["value"], "value", None)


# --- How often a statement runs -------------------------------------------------------

def _handler_between(op: ir.Operation, loop: ir.Operation) -> str | None:
    """The `except` clause between `op` and `loop` that holds `op`, as text: a handler
    runs on the iterations whose body raised (an epoch's end, a retried read), not on
    every one; None when there is none."""
    parent = op.parent
    while parent is not None and not same_op(parent, loop):
        if parent.name == "host.except":
            caught = producer(parent.operands[0]) if parent.operands else None
            text = string_attr(caught, "qualname") or string_attr(caught, "name") \
                if caught is not None else ""
            return f"except {text.rsplit('.', 1)[-1]}" if text else "except"
        parent = parent.parent
    return None


def branches(op: ir.Operation, loop: ir.Operation) -> list[tuple[ir.Operation, int]]:
    """(host.if, index of the region holding `op`) for each `if` between `op` and `loop`."""
    found = []
    child, parent = op, op.parent
    while parent is not None and parent != loop:
        if parent.name == "host.if":
            region = child.block.region
            found.append((parent, next(i for i, r in enumerate(parent.regions) if r == region)))
        child, parent = parent, parent.parent
    return found


def expression_ops(value: ir.Value, depth: int = 0) -> Iterator[ir.Operation]:
    """The value ops an expression is computed by (through operands, not into calls)."""
    op = producer(value)
    if op is None or depth > 8:
        return
    yield op
    if op.name in _VALUE_OPS or op.name == "host.boolop":
        for v in op.operands:
            yield from expression_ops(v, depth + 1)


#: frequencies of a statement that runs on few iterations of its loop
RARE = ("periodic", "once", "last", "off")
#: a guard `i % n` with a constant n up to this runs often enough to count as most steps
_OFTEN = 8


@dataclass(frozen=True)
class Frequency:
    """How often a statement in a loop runs: on every iteration, or only when a guard
    holds (`step % 100 == 0` is periodic, `i == 0` picks one iteration)."""

    guard: str = ""  # the condition's source text, "" when the statement always runs
    #: always, periodic, once (one chosen iteration), last (on the way out of the loop:
    #: the branch ends in break or return), conditional
    kind: str = "always"
    #: a conditional guard's stated period (`step % 2 == 0`: 2), 0 when it has none
    period: int = 0

    def phrase(self, loop: ir.Operation) -> str:
        """"on every iteration of the `for x` loop (line 3)", or the guarded form."""
        if self.kind == "always" and self.guard:  # a guard that holds by default
            return (f"on every iteration of {describe_loop(loop)} (`{self.guard}` holds on "
                    f"each with the settings' defaults)")
        if self.kind == "always":
            return f"on every iteration of {describe_loop(loop)}"
        return f"on the iterations of {describe_loop(loop)} where `{self.guard}` holds"

    def assumption(self, loop: ir.Operation) -> Assumption | None:
        """What a per-iteration cost hint rests on: nothing for a statement that always
        runs; a high-risk speculation for a periodic or one-iteration guard (such hints
        are not worth it at the default level), a medium one for another condition."""
        if self.kind == "always":
            return None
        rare = self.kind in RARE
        return Assumption("every-iteration", describe_loop(loop), "high" if rare else "medium",
                          "speculated",
                          f"it runs only when `{self.guard}` holds" if rare else
                          f"it runs only when `{self.guard}` holds, assumed most iterations")


def frequency(op: ir.Operation, loop: ir.Operation) -> Frequency:
    """How often `op` runs in `loop`: the guards of the `if` branches between them. The
    `else` of a periodic test runs on most iterations, so only `then` branches count."""
    found = Frequency()
    if (handler := _handler_between(op, loop)) is not None:  # `except OutOfRangeError:`
        found = Frequency(handler, "once")
    for if_op, region in branches(op, loop):
        cond = if_op.operands[0]
        if region != 0 or invariant_in(cond, loop, pure=("pure", "sync")):
            continue  # a test of a setting (`if args.verbose`) runs on all iterations or none
        text = string_attr(producer(cond), "harp.source") if producer(cond) else ""
        kind, period = guard_kind(cond, loop, if_op)
        off = _flag_off(cond)
        if off:  # `args.train_behavioral and t >= start`: a mode a default run never takes
            kind, text = "off", f"{off}` is given (off by default); and `{text or 'the condition'}"
        rank = ("always", "conditional", "last", "once", "periodic", "off")
        if rank.index(kind) > rank.index(found.kind) or \
                kind == found.kind and period > found.period:
            found = Frequency(text or "the condition", kind, period)
    return found


#: rare guard kinds from the most frequent to the least: `a or b` holds as often as its
#: most frequent part
_BY_FREQUENCY = ("periodic", "last", "once", "off")


def guard_kind(cond: ir.Value, scope: ir.Operation, if_op: ir.Operation,
               depth: int = 0) -> tuple[str, int]:
    """How often the condition `cond` of `if_op` holds per iteration of `scope`, a loop,
    or per call of `scope`, a function: its kind (see Frequency) and a conditional guard's
    stated period. A name bound to a condition (`step_eval = step % n == 0; if epoch_eval
    or step_eval:`) is read as that condition, and `a or b` is rare only when every part
    is, as often as its most frequent part. In a function, a test for one int
    (`self.t_step == 0`) picks some calls; nothing there is the last of its calls."""
    in_function = scope.name == "host.func"
    value = _untruthed(_condition_named(_untruthed(cond), scope))
    op = producer(value)
    if op is not None and op.name == "host.boolop" and string_attr(op, "op") == "or" and \
            depth < 4:
        parts = [guard_kind(v, scope, if_op, depth + 1) for v in op.operands]
        if not all(kind in RARE for kind, _ in parts):
            return "conditional", 0
        kind = next(k for k in _BY_FREQUENCY if any(kind == k for kind, _ in parts))
        return kind, 0
    ops = list(expression_ops(value))
    kind = modulus_kind(ops if in_function else [
        o for o in ops if not invariant_in(o.result, scope, pure=("pure", "sync"))])
    period = 0
    if not kind and not in_function:
        kind, period = _counter_reset(ops, scope, if_op)
    if not kind:
        kind, period = _marker_reset(ops, scope, if_op)
    if not kind and (any(tests_one_value(o, ints_only=True) for o in ops) if in_function
                     else any(tests_one_value(o) or _picks_one_iteration(o, scope)
                              for o in ops)):
        kind = "once"
    elif not kind and in_function:
        kind = "conditional"
    elif not kind:  # `if done: ...; break`, or `if done:` in `while not done:`
        # the last iteration of the loop the `if` is in: of an inner loop (an episode's
        # steps), that is once per iteration of `loop`
        own = enclosing_loop(if_op)
        kind = "last" if _leaves_loop(if_op, own if own is not None else scope, value) \
            else "conditional"
    if kind == "conditional" and _every_iteration_by_default(ops):
        return "always", 1
    return kind, (period or modulus_period(ops)) if kind == "conditional" else 0


def _every_iteration_by_default(ops: list[ir.Operation]) -> bool:
    """Whether the test is `x % n == 0` with n a setting whose default is 1
    (`if t % args.target_update_interval == 0` with `default=1`): it holds on every
    iteration of a run that keeps the default."""
    mods = [o for o in ops if o.name == "host.binop" and string_attr(o, "op") == "mod"]
    tests = [o for o in ops if o.name == "host.compare" and len(o.operands) == 2]
    if not mods or len(tests) != 1 or strings_attr(tests[0], "ops") != ["eq"] or \
            any(setting_int(m.operands[1]) != 1 for m in mods):
        return False
    left, right = (producer(v) for v in tests[0].operands)
    return any(a is not None and b is not None and any(same_op(a, m) for m in mods) and
               constant_value(b.result) == 0 for a, b in ((left, right), (right, left)))


def _counter_reset(ops: list[ir.Operation], loop: ir.Operation,
                   if_op: ir.Operation) -> tuple[str, int]:
    """`if self.t >= self.t_max: update(); self.t = 0` with `self.t += 1` every iteration:
    a counter the guarded branch resets holds the test once in every n iterations, as
    `t % n == 0` does ("periodic", or "conditional" with its period for a stated n up to
    `_OFTEN`); ("", 0) for any other test."""
    for op in ops:
        if op.name != "host.compare" or len(op.operands) != 2 or \
                strings_attr(op, "ops")[0] not in ("ge", "gt", "eq", "le", "lt"):
            continue
        for mine, other in (op.operands, reversed(list(op.operands))):
            if _counted_in(mine, loop) and (invariant_in(other, loop) or
                                            _unset_in(other, loop)) and \
                    _resets(if_op, producer(mine)):
                n = setting_int(other) or 0
                return ("conditional", n) if 0 < n <= _OFTEN else ("periodic", 0)
    return "", 0


def _marker_reset(ops: list[ir.Operation], scope: ir.Operation,
                  if_op: ir.Operation) -> tuple[str, int]:
    """`if step - last_eval >= every: last_eval = step`, `if time.time() - last > 60:
    last = time.time()`: the guarded branch moves the marker up to the value it is
    compared against, so the test holds again only once that value has moved on by the
    interval: periodic ("conditional" with its period for a stated interval up to
    `_OFTEN`); ("", 0) for any other test."""
    for op in ops:
        if op.name != "host.compare" or len(op.operands) != 2 or \
                strings_attr(op, "ops")[0] not in ("ge", "gt"):
            continue
        diff, bound = producer(op.operands[0]), op.operands[1]
        if diff is None or diff.name != "host.binop" or string_attr(diff, "op") != "sub" or \
                not invariant_in(bound, scope):
            continue
        current, marker = producer(diff.operands[0]), producer(diff.operands[1])
        if marker is None or marker.name != "host.load" or current is None or \
                not any(_moves_marker(o.operation, string_attr(marker, "name"), current)
                        for o in if_op.regions[0].blocks[0].operations):
            continue
        n = setting_int(bound) or 0
        return ("conditional", n) if 0 < n <= _OFTEN else ("periodic", 0)
    return "", 0


def _moves_marker(op: ir.Operation, marker: str, current: ir.Operation) -> bool:
    """Whether `op` is `marker = current`: a store of the marker's name of the same name
    (`last = step`) or the same library call (`last = time.time()`) the test reads."""
    if op.name != "host.store" or string_attr(op, "name") != marker:
        return False
    value = producer(op.operands[0])
    if value is None or value.name != current.name:
        return False
    if value.name == "host.load":
        return string_attr(value, "name") == string_attr(current, "name")
    return value.name == "host.call" and bool(string_attr(value, "qualname")) and \
        string_attr(value, "qualname") == string_attr(current, "qualname")


def _resets(if_op: ir.Operation, read: ir.Operation) -> bool:
    """Whether the `then` branch of `if_op` sets the counter `read` reads back to a
    constant (`self.t = 0`), not under a further condition."""
    name = string_attr(read, "name" if read.name == "host.load" else "attr")
    kind = "host.store" if read.name == "host.load" else "host.setattr"
    for op in if_op.regions[0].blocks[0].operations:
        op = op.operation
        if op.name == kind and string_attr(op, "name" if kind == "host.store" else
                                           "attr") == name and \
                isinstance(constant_value(op.operands[-1]), int):
            return True
    return False


def _untruthed(value: ir.Value) -> ir.Value:
    """The value a condition tests, through the `bool()` of it (`host.truth`)."""
    while (op := producer(value)) is not None and op.name == "host.truth":
        value = op.operands[0]
    return value


def _condition_named(value: ir.Value, scope: ir.Operation) -> ir.Value:
    """The expression a local holds when the loop or function `scope` binds it to a
    comparison or a boolean combination (`step_eval = step % n == 0`), else `value`."""
    load = producer(value)
    if load is None or load.name != "host.load":
        return value
    made = reaching_definition(value, enclosing_scope(load))
    if made is not None and holds(scope, made) and len(made.results) == 1 and \
            made.name in ("host.compare", "host.boolop", "host.unop"):
        return made.result
    return value


def iterated_range(iterable: ir.Value) -> ir.Operation | None:
    """The `range(...)` call a loop iterates, directly or through `reversed(...)` (a return
    or an advantage computed from the last time step back); None for anything else."""
    made = producer(iterable)
    if made is not None and string_attr(made, "qualname") == "builtins.reversed" and \
            len(made.operands) == 2:
        made = producer(made.operands[1])
    return made if made is not None and made.name == "host.call" and \
        string_attr(made, "qualname") == "builtins.range" and \
        2 <= len(made.operands) <= 3 else None


def _picks_one_iteration(op: ir.Operation, loop: ir.Operation) -> bool:
    """`t == n - 1` in `for t in ...`: the loop's variable, which takes each value of a
    `range` once, tested against a value the loop does not change holds on one iteration."""
    if op.name != "host.compare" or strings_attr(op, "ops") != ["eq"] or \
            len(op.operands) != 2:
        return False
    if any(_counted_in(mine, loop) and (invariant_in(other, loop) or _unset_in(other, loop))
           for mine, other in (op.operands, reversed(list(op.operands)))):
        return True  # `self.steps == self.sample_size`, `self.steps += 1` each iteration
    target = loop_counter(loop)
    if not target:
        return False
    for mine, other in (op.operands, reversed(list(op.operands))):
        load = producer(mine)
        if load is not None and load.name == "host.load" and \
                string_attr(load, "name") == target and invariant_in(other, loop):
            return True
    return False


def loop_counter(loop: ir.Operation) -> str:
    """The int counter of a `for` loop, which takes each value once: the variable of a
    loop over `range(...)` (or `reversed(range(...))`), or the index of a loop over
    `enumerate(...)`; "" otherwise (a loop over a sampler or a list of index arrays may
    hand out anything)."""
    if loop.name != "host.for":
        return ""
    names = loop_targets(loop)
    if iterated_range(loop.operands[0]) is not None and len(names) == 1:
        return names[0]
    made = producer(loop.operands[0])
    return names[0] if made is not None and len(names) == 2 and \
        string_attr(made, "qualname") == "builtins.enumerate" else ""


def _unset_in(value: ir.Value, loop: ir.Operation) -> bool:
    """`self.sample_size` where nothing in `loop` stores an attribute of that name (the
    loop sets other attributes of `self`, so `self` itself is not invariant)."""
    read = producer(value)
    return read is not None and read.name == "host.getattr" and \
        producer(read.operands[0]) is not None and \
        producer(read.operands[0]).name == "host.load" and \
        not any(o.name == "host.setattr" and string_attr(o, "attr") == string_attr(read, "attr")
                for o in walk(loop))


def _flag_off(cond: ir.Value) -> str:
    """`--train_behavioral` when a conjunct of the condition (`args.train_behavioral and t
    >= args.start_timesteps`) is a command-line flag whose stated default is off
    (`action="store_true"` without a default, or `default=False`): the branch runs only
    in a mode the user asks for. "" otherwise."""
    for get in _conjuncts(cond):
        if get.name != "host.getattr" or not _parsed_arguments(get.operands[0]):
            continue
        flag = _flag_default_off(get)
        if flag:
            return flag
    return ""


def _flag_default_off(attribute: ir.Operation) -> str:
    """The flag of `args.x` when the program's `add_argument("--x", ...)` stores True on
    demand with no other default (`action="store_true"`, `default=False`), else ""."""
    found = _added_argument(attribute)
    if found is None:
        return ""
    flag, keywords = found
    default = constant_value(keywords["default"]) if "default" in keywords else None
    store_true = constant_value(keywords.get("action")) == "store_true" \
        if "action" in keywords else False
    return flag if default is False or store_true and "default" not in keywords else ""


def _counted_in(value: ir.Value, loop: ir.Operation) -> bool:
    """Whether `value` reads a counter that `loop`'s own body (not a loop inside it) adds a
    constant to (`steps += 1`, `self.steps += 1`): tested for one value, it holds on one
    iteration per count (an on-policy agent's update once per rollout)."""
    read = producer(value)
    if read is None or read.name not in ("host.load", "host.getattr"):
        return False
    name = string_attr(read, "name" if read.name == "host.load" else "attr")
    for store in walk(loop):
        if store.name not in ("host.store", "host.setattr") or \
                not same_op(enclosing_loop(store), loop) or \
                string_attr(store, "name" if store.name == "host.store" else "attr") != name:
            continue
        added = producer(store.operands[-1])
        if added is not None and added.name == "host.binop" and \
                string_attr(added, "op") == "add" and \
                isinstance(constant_value(added.operands[1]), int):
            return True
    return False


def tests_one_value(op: ir.Operation, ints_only: bool = False) -> bool:
    """`x == c`: a test for one value (with `ints_only`, an int: `self.t_step == 0`, not
    a setting such as `mode == "train"`), which picks some iterations or calls."""
    if op.name != "host.compare" or \
            strings_attr(op, "ops") != ["eq"]:
        return False
    found = [constant_value(v) for v in op.operands]
    if ints_only:
        return any(isinstance(c, int) and not isinstance(c, bool) for c in found)
    return any(c is not NOT_CONSTANT for c in found)


def modulus_kind(ops: list[ir.Operation]) -> str:
    """How often a test of `x % n` among `ops` holds: "conditional" when every n is a
    constant up to `_OFTEN` (`step % 4 == 0`: a quarter of the iterations or more),
    "periodic" for a larger or unknown n (`step % 100`, `it % self.policy_freq`), "" when
    the test takes no modulus."""
    mods = [o for o in ops if o.name == "host.binop" and string_attr(o, "op") == "mod"]
    if not mods:
        return ""
    if all(0 < (setting_int(o.operands[1]) or 0) <= _OFTEN for o in mods):
        return "conditional"
    return "periodic"


def modulus_period(ops: list[ir.Operation]) -> int:
    """The largest stated n of the tests of `x % n` among `ops` (0 when there is none, or
    one n is not stated): the guard holds on one iteration in n."""
    mods = [o for o in ops if o.name == "host.binop" and string_attr(o, "op") == "mod"]
    periods = [setting_int(o.operands[1]) for o in mods]
    return max(periods) if periods and None not in periods else 0


def _leaves_loop(if_op: ir.Operation, loop: ir.Operation,
                 cond: ir.Value | None = None) -> bool:
    """Whether the `then` branch of `if_op` runs on the loop's last iteration only: it
    ends in `break` or `return`, or its condition (or `cond`, the part of it asked
    about: `done` in `t >= t_max or done`) tests a name the `while` condition tests."""
    body = if_op.regions[0].blocks[0].operations
    last = body[len(body) - 1].operation if len(body) else None
    if last is not None and last.name in ("hostcf.break", "hostcf.return") and \
            same_op(enclosing_loop(if_op), loop):
        return True
    if loop.name != "host.while":
        return False
    tested = {string_attr(o.operation, "name") for o in loop.regions[0].blocks[0].operations
              if o.operation.name == "host.load"}
    exits = _exit_calls(loop)
    for term in _conjuncts(if_op.operands[0] if cond is None else cond):
        if term.name == "host.load" and string_attr(term, "name") in tested:
            return True
        if term.name == "host.load" and exits:  # `done = env.finished()` then `if done and ..`
            store = reaching_store(term)
            term = producer(store.operands[0]) if store is not None else None
        if term is not None and _call_key(term) in exits:
            return True
    return False


def _conjuncts(value: ir.Value) -> list[ir.Operation]:
    """The ops whose truth a condition requires together: `a and b > 0` gives `a`'s and
    `b > 0`'s (through `bool()` of each)."""
    op = producer(value)
    while op is not None and op.name == "host.truth":
        op = producer(op.operands[0])
    if op is not None and op.name == "host.boolop" and string_attr(op, "op") == "and":
        return [t for v in op.operands for t in _conjuncts(v)]
    return [op] if op is not None else []


def _call_key(op: ir.Operation) -> tuple[str, str] | None:
    """(receiver, method) of an argument-less method call (`game.is_episode_finished()`)."""
    if op.name != "host.call" or len(op.operands) != 1 or not string_attr(op, "method"):
        return None
    return string_attr(op, "harp.receiver"), string_attr(op, "method")


def _exit_calls(loop: ir.Operation) -> set[tuple[str, str]]:
    """The argument-less calls a `while not game.is_episode_finished():` condition negates:
    a test of the same call in the body holds on the loop's last iteration only."""
    found = set()
    for o in loop.regions[0].blocks[0].operations:
        o = o.operation
        if o.name == "host.unop" and string_attr(o, "op") == "not":
            for term in _conjuncts(o.operands[0]):
                key = _call_key(term)
                if key is not None and key[0]:
                    found.add(key)
    return found


# --- Where tensors live ---------------------------------------------------------------

#: calls that say a program places tensors on an accelerator
_ACCELERATOR_PREFIXES = ("torch.cuda.", "torch.accelerator.", "torch.backends.cudnn",
                         "torch.backends.mps", "torch.nn.DataParallel", "torch.nn.parallel.",
                         "torch.distributed.")
_DEVICE_WORDS = ("cuda", "gpu", "xpu", "mps", "device", "accel", "tpu")
#: calls that set up training or inference: a file making them is a program that decides
#: where its tensors live (a file that makes none only handles tensors callers give it)
_PROGRAM_SETUP = ("torch.optim.", "torch.utils.data.DataLoader")


def names_device(value: ir.Value) -> bool:
    """Whether an argument names a device other than the CPU: a constant such as "cuda:0",
    or a name or call that speaks of one (`device`, `args.cuda`, `torch.device(...)`)."""
    const = constant_value(value)
    if const is not NOT_CONSTANT:
        return isinstance(const, str) and any(w in const.lower() for w in _DEVICE_WORDS)
    if _bound_to_cpu(value):
        return False  # `device = torch.device('cpu')`: a name that speaks of a device
    text = value_name(value).lower()
    op = producer(value)
    if op is not None and op.name == "host.call":
        text += string_attr(op, "qualname").lower()
    return any(w in text for w in _DEVICE_WORDS)


def _bound_to_cpu(value: ir.Value) -> bool:
    """Whether `value` reads a name every binding of which is the CPU: `"cpu"` or
    `torch.device("cpu")` (a tutorial's `device = torch.device('cpu')`, with the GPU line
    commented out), where Python's rule binds the name (`binding_scopes`)."""
    load = producer(value)
    if load is None or load.name != "host.load":
        return False
    made = [m for scope in binding_scopes(load) for m in definitions(value, scope)]
    return bool(made) and all(_cpu_device(m) for m in made)


def _cpu_device(made: ir.Operation) -> bool:
    """`"cpu"`, or `torch.device("cpu")` / `torch.device("cpu", 0)`."""
    if made.name == "host.call" and string_attr(made, "qualname") == "torch.device":
        args = call_arguments(made)
        return bool(args) and constant_value(args[0][1]) == "cpu"
    return made.name == "host.constant" and constant_value(made.result) == "cpu"


def host_module(op: ir.Operation) -> ir.Operation | None:
    """The host.module (one file) that holds `op`."""
    parent = op
    while parent is not None and parent.name != "host.module":
        parent = parent.parent
    return parent


def accelerator(op: ir.Operation) -> Assumption:
    """Whether the file holding `op` can put tensors on an accelerator, as the "accelerator"
    assumption of hints whose benefit needs one (syncs, pinned memory, worker processes).
    PyTorch runs on the CPU unless the program places tensors elsewhere (`.cuda()`,
    `.to(device)`, `device=`, `torch.device`, `torch.cuda.*`); a file that never does is
    CPU-only, a high-risk place for such hints, when it sets up training itself (builds an
    optimizer or a DataLoader); a file that does not handles tensors its callers place.
    TensorFlow (and Keras, which runs on it) places ops on a GPU by itself."""
    module = host_module(op)
    if module is None:
        return Assumption("accelerator", "", "low", "speculated", "")
    return _file_accelerator(module)


@per_run()
def _file_accelerator(module: ir.Operation) -> Assumption:
    """`accelerator` for one file (a host.module)."""
    evidence, tf, program = "", False, False
    for o in walk(module):
        if o.name != "host.call":
            continue
        qualname, method = string_attr(o, "qualname"), string_attr(o, "method")
        tf = tf or qualname.startswith(("tensorflow.", "keras."))  # Keras runs on TensorFlow
        program = program or qualname.startswith(_PROGRAM_SETUP)
        args = call_arguments(o)
        if qualname.startswith(_ACCELERATOR_PREFIXES) or method == "cuda":
            evidence = qualname or f".{method}()"
        elif method == "to" and any(names_device(v) for _, v in args):
            evidence = ".to(device)"
        elif qualname == "torch.device" and any(names_device(v) for _, v in args):
            evidence = "torch.device(...)"
        elif any(k == "device" and names_device(v) for k, v in args):
            evidence = "device=..."
        elif any(k == "**" for k, _ in args):
            continue
        if evidence:
            break
    if evidence:
        found = Assumption("accelerator", "", "low", "speculated",
                           f"the program places tensors on an accelerator ({evidence})")
    elif tf:
        found = Assumption("accelerator", "", "low", "speculated",
                           "TensorFlow places ops on a GPU when there is one")
    elif not program:
        found = Assumption("accelerator", "", "medium", "speculated",
                           "the tensors come from callers, which may place them on a GPU")
    else:
        found = Assumption("accelerator", "", "high", "speculated",
                           "nothing in this file places tensors on an accelerator (no "
                           "`.cuda()`, `.to(device)` or `device=`): on the CPU this costs "
                           "little")
    return found


def imported_accelerator(op: ir.Operation) -> Assumption | None:
    """A medium-risk "accelerator" speculation when the file holding `op` places nothing
    but a file of the program it imports, directly or through others, places tensors on an
    accelerator (an agent's file importing `from ..utils import *`, whose `torch_utils`
    picks the device and builds every tensor there): the program can run on a GPU, though
    this path's tensors are not seen going there. None when no imported file does."""
    start = host_module(op)
    return _imported_accelerator(start) if start is not None else None


@per_run()
def _imported_accelerator(start: ir.Operation) -> Assumption | None:
    """`imported_accelerator` for one file (a host.module)."""
    modules = _program_modules(start)
    seen, work = {start}, [start]
    while work:
        module = work.pop()
        for o in walk(module):
            if o.name != "host.import":
                continue
            for name in (string_attr(o, "module"),
                         f"{string_attr(o, 'module')}.{string_attr(o, 'name')}"):
                target = modules.get(name)
                if target is None or target in seen:
                    continue
                seen.add(target)
                work.append(target)
                found = accelerator(target)
                if found.risk == "low" and found.reason.startswith("the program places"):
                    where = Path(string_attr(target, "filename")).name
                    evidence = found.reason.rpartition(" accelerator")[2]
                    return Assumption("accelerator", "", "medium", "speculated",
                                      f"{where}, which this file imports (directly or "
                                      f"through others), places tensors on an "
                                      f"accelerator{evidence}")
    return None


# --- What a value feeds ---------------------------------------------------------------

#: calls that only show or save a value for a person: printing, logging, progress bars,
#: plots, image files
_OUTPUT_QUALNAMES = ("builtins.print", "logging.", "matplotlib.", "tqdm.", "wandb.log",
                     "torchvision.utils.save_image")
_OUTPUT_METHODS = frozenset({
    "write", "info", "debug", "warning", "error", "log", "add_scalar", "add_scalars",
    "add_histogram", "add_image", "set_postfix", "set_postfix_str", "set_description",
    "plot", "imshow", "text", "scatter", "set_title", "histo_summary", "scalar_summary",
    "image_summary", "add_images", "add_figure", "add_video", "image", "images", "histogram",
    "heatmap", "track"})
#: ops that compute a new host value from a value on its way to a use
_PASS_THROUGH = ("host.binop", "host.unop", "host.tuple", "host.list", "host.dict",
                 "host.fstring", "host.getitem", "host.getattr", "host.compare")
_ACCUMULATE_METHODS = frozenset({"append", "extend"})


def value_uses(value: ir.Value, scope: ir.Operation, depth: int = 0) -> set[str]:
    """What the host does with `value`: "output" (it reaches a print, a logger, a plot or
    an image file, through formatting and host computation), "accumulate" (`total += v`,
    `values.append(v)`, and whatever the loop does with `total` besides), "host" (anything
    else: a branch, an index, a call, a container store), "host-math" besides when it goes
    through a `math` or NumPy function on the way, followed through the locals of
    `scope`; nothing for a value never used. A sync whose value is only output is a
    logging cost; one whose value is only accumulated, or unused, can stay on the
    device."""
    if depth > 6:
        return {"host"}
    found: set[str] = set()
    for use in value.uses:
        op = user(use)
        if op.name == "host.call":
            qualname, method = string_attr(op, "qualname"), string_attr(op, "method")
            if _is_output(op):
                found.add("output")
            elif method in _ACCUMULATE_METHODS and use.operand_number > 0:
                found.add("accumulate")
            elif qualname.startswith(("numpy.", "math.")) or _array_method(op):
                # host math, in float64 (`np.sqrt(v)`, `v.flatten()` on an array)
                found |= {"host-math"} | value_uses(op.result, scope, depth + 1)
            elif qualname.startswith("builtins.") or method == "format" \
                    or string_attr(op, "effect") in ("pure", "view", "sync"):
                found |= value_uses(op.result, scope, depth + 1)  # host computation
            else:
                found.add("host")
        elif op.name == "host.append":
            found.add("accumulate")  # an element of a comprehension, used after its loop
        elif op.name == "host.binop" and _accumulates(op):
            # `total += v`: what else the loop does with `total` is what it does with v
            found |= {"accumulate"} | _accumulator_uses(op, scope, depth)
        elif op.name in _PASS_THROUGH:
            found |= value_uses(op.result, scope, depth + 1)
        elif op.name == "host.store":
            found |= _slot_uses(string_attr(op, "name"), scope, depth)
        else:
            found.add("host")
    return found


def call_text(op: ir.Operation) -> str:
    """How a message names a call on a value: "`loss.numpy()`", "`float(loss)`"."""
    subject = string_attr(op, "harp.receiver") or "the value"
    method = string_attr(op, "method")
    if method:
        return f"`{subject}.{method}()`"
    return f"`{string_attr(op, 'qualname').removeprefix('builtins.')}({subject})`"


def steers(value: ir.Value, scope: ir.Operation) -> bool:
    """Whether `value` decides which way the code in `scope` goes: it reaches the
    condition of an `if` or a `while` (or an `and`/`or` operand, a loop's iterable),
    through computation and the locals of `scope`. A host value that only feeds output,
    an accumulator or a returned result does not. Past 200 values, assumed to."""
    work, seen = [value], 0
    visited: set[str] = set()
    while work:
        seen += 1
        if seen > 200:
            return True
        for use in work.pop().uses:
            op = user(use)
            if op.name in ("host.truth", "host.boolop", "host.for", "hostcf.condition",
                           "host.if"):
                return True
            if op.name in _PASS_THROUGH or op.name == "host.call" and string_attr(
                    op, "effect") in ("pure", "view", "sync") and op.results:
                work.append(op.result)
            elif op.name == "host.store" and not string_attr(op, "scope"):
                name = string_attr(op, "name")
                if name not in visited:
                    visited.add(name)
                    work += [o.result for o in walk(scope)
                             if o.name == "host.load" and string_attr(o, "name") == name]
    return False


def _array_method(call: ir.Operation) -> bool:
    """`a.flatten()` with `a` a NumPy array (`t.cpu().numpy()`): host computation."""
    callee = producer(call.operands[0]) if call.operands else None
    if callee is None or callee.name != "host.getattr" or not string_attr(call, "method"):
        return False
    made = producer(callee.operands[0])
    return made is not None and string_attr(made, "harp.kind") == "ndarray"


def _accumulator_uses(binop: ir.Operation, scope: ir.Operation, depth: int) -> set[str]:
    """What the loop around an accumulation (`total += v`) does with `total` besides
    accumulating: printing it every step makes each step need `v` on the host."""
    loop = enclosing_loop(binop)
    if loop is None:
        return set()
    name = next(string_attr(u.owner.operation, "name") for u in binop.result.uses
                if u.owner.operation.name == "host.store")
    found: set[str] = set()
    for o in walk(loop):
        if o.name != "host.load" or string_attr(o, "name") != name or \
                frequency(o, loop).kind in ("periodic", "once"):
            continue  # read at a log interval: the sync moves there, as it should
            # (a read on the way out of the loop, kind "last", needs the number there)
        for use in o.result.uses:
            reader = user(use)
            if reader.name == "host.binop" and _accumulates(reader):
                continue
            found |= value_uses(reader.result, scope, depth + 1) if reader.name in \
                _PASS_THROUGH else {"output"} if _is_output(reader) else {"host"}
    return found


def _is_output(op: ir.Operation) -> bool:
    return op.name == "host.call" and (
        string_attr(op, "qualname").startswith(_OUTPUT_QUALNAMES)
        or string_attr(op, "method") in _OUTPUT_METHODS)


def _accumulates(binop: ir.Operation) -> bool:
    """`total += v` (or `total = total + v`): a sum stored back into the slot it read."""
    if string_attr(binop, "op") not in ("add", "sub", "mul", "truediv"):
        return False
    loaded = {string_attr(producer(v), "name") for v in binop.operands
              if producer(v) is not None and producer(v).name == "host.load"}
    return any(u.owner.operation.name == "host.store" and
               string_attr(u.owner.operation, "name") in loaded
               for u in binop.result.uses if hasattr(u.owner, "operation"))


def _slot_uses(name: str, scope: ir.Operation, depth: int) -> set[str]:
    """What the loads of a local do with it (a local stored more than once is "host")."""
    ops = walk(scope)
    if sum(1 for o in ops if o.name == "host.store" and string_attr(o, "name") == name) != 1:
        return {"host"}
    found: set[str] = set()
    for o in ops:
        if o.name == "host.load" and string_attr(o, "name") == name:
            found |= value_uses(o.result, scope, depth + 1)
    return found


def on_cpu(value: ir.Value, depth: int = 0) -> bool:
    """Whether `value` is a tensor a factory made on the CPU (`torch.randint(...)`,
    `torch.tensor(list)[i]`, no `device=`) or a copy `.cpu()` made, in this expression,
    in the store of a local that reaches it, or in what every call passes for a
    parameter: it needs no sync."""
    op = producer(value)
    if depth > 6:
        return False
    if op is None or op.name == "host.unpack":  # `for x, y in loader`: a batch's field
        return _host_batch_field(value) or _element_of_host_tensor(value, depth)
    if op.name == "host.load":  # `ix = torch.randint(...)`, then `ix[i]` or `for i in ix`
        passed = passed_arguments(value)  # a parameter: what every call passes for it
        if passed:
            return all(on_cpu(arg, depth + 1) for arg, _ in passed)
        store = binding_store(op)
        if store is not None and on_cpu(store.operands[0], depth + 1):
            return True  # also a loop's element, unpacked: `for j, k in enumerate(lengths)`
        made = reaching_definition(value, enclosing_scope(op))
        return made is not None and made.name != "host.load" and len(made.results) == 1 \
            and on_cpu(made.result, depth + 1)
    if op.name == "host.call" and string_attr(op, "qualname") in FRESH_FACTORIES:
        arguments = call_arguments(op)
        if any(k == "device" or k.startswith("*") for k, _ in arguments):
            return False
        if string_attr(op, "qualname").endswith("_like"):  # on the device of its input
            like = next((v for k, v in arguments if not k), None)
            return like is not None and on_cpu(like, depth + 1)
        return True
    if op.name == "host.getitem":
        return on_cpu(op.operands[0], depth + 1)
    if op.name == "host.call" and string_attr(op, "method") == "cpu":  # a copy in host memory
        return True
    if op.name == "host.binop":  # `y - 4` of a CPU tensor: CPU (a device operand would fail)
        return any(on_cpu(v, depth + 1) for v in op.operands)
    if op.name == "host.call" and string_attr(op, "method") and \
            string_attr(op, "effect") == "pure":
        callee = producer(op.operands[0])
        return callee is not None and callee.name == "host.getattr" and \
            on_cpu(callee.operands[0], depth + 1)
    return False


def _element_of_host_tensor(value: ir.Value, depth: int) -> bool:
    """Whether `value` is what a `for` loop takes from a tensor in host memory (`k` in
    `for j, k in enumerate(lengths)`, `lengths` a field of a loader's batch)."""
    loop = _element_loop(value)
    if loop is None:
        return False
    iterable = loop.operands[0]
    made = producer(iterable)
    if made is not None and string_attr(made, "qualname") == "builtins.enumerate" and \
            len(made.operands) > 1:
        iterable = made.operands[1]
    return on_cpu(iterable, depth + 1)


def _element_loop(value: ir.Value) -> ir.Operation | None:
    """The `for` loop whose element `value` is, through the unpackings of its target
    (`k` of `for j, k in enumerate(lengths)`); None for any other value."""
    while (op := producer(value)) is not None and op.name == "host.unpack":
        value = op.operands[0]
    loop = value.owner.owner if isinstance(value.owner, ir.Block) else None
    return loop if loop is not None and loop.name == "host.for" else None


def _host_batch_field(value: ir.Value) -> bool:
    """Whether `value` is (a field of) a batch a `for` loop takes from a torch `DataLoader`
    whose collate function moves nothing to a device: the loader's worker or the main
    process assembles the batch in host memory, so reading it waits for no device."""
    from harp_ir import callgraph

    loop = _element_loop(value) if loader_batch_place(value) is not None else None
    loader = callgraph.iterated_loader(loop) if loop is not None else None
    if loader is None or string_attr(loader, "qualname") != "torch.utils.data.DataLoader":
        return False
    collate = dict(call_arguments(loader)).get("collate_fn")
    if collate is None:
        return True  # the default collate stacks the dataset's items where they are
    made = definition(collate, enclosing_scope(loader))
    if made is not None and made.name == "host.call" and \
            string_attr(made, "qualname") == "functools.partial" and len(made.operands) > 1:
        collate = made.operands[1]  # `partial(collate_synthesizer, r=r)`
    func = function_named(collate)
    return func is not None and not any(_moves_to_device(o) for o in walk(func))


def _moves_to_device(op: ir.Operation) -> bool:
    """Whether a call may put its result on a device: `.to(...)`, `.cuda()`, or a factory
    or conversion given `device=` (`torch.tensor(a)` alone stays in host memory)."""
    return op.name == "host.call" and (
        string_attr(op, "method") in ("to", "cuda") or
        any(k == "device" or k.startswith("*") for k, _ in call_arguments(op)))


#: methods that run a model or a training step
_WORK_METHODS = frozenset({"backward", "step", "run", "forward", "apply_gradients",
                           "minimize", "gradient", "train_on_batch", "fit", "predict"})


def does_model_work(loop: ir.Operation, strict: bool = False,
                    besides: ir.Operation | None = None) -> bool:
    """Whether an iteration of `loop` runs a model, a training step or a graph (a module
    call, `backward`, an optimizer step, `Session.run`, a user function) or iterates
    batches: a hot loop, as opposed to one over parameters, plots or a few results.
    `strict` leaves out calls of user functions and of callables of unknown kind;
    `besides`, the calls of that function (a conversion helper the question is about)."""
    iterable = producer(loop.operands[0]) if loop.name == "host.for" else None
    if iterable is not None and string_attr(iterable, "harp.kind") == "dataloader":
        return True
    if few_iterations(loop) or over_parameters(loop):
        return False  # `for i in range(5)`, `for p in model.parameters()`
    return any(model_work_call(op, strict) and
               (besides is None or not same_op(called_function(op), besides))
               for op in walk(loop))


def model_work_call(op: ir.Operation, strict: bool = False, depth: int = 2) -> bool:
    """Whether `op` is a call that runs a model, a training step or a graph (see
    `does_model_work`; `strict` leaves out calls of callables of unknown kind, and of user
    functions unless their own body does such work, `depth` calls down: a notebook's
    `play_one_step(env, obs)` that runs the model and steps the environment)."""
    if op.name != "host.call":
        return False
    if string_attr(op, "method") in _WORK_METHODS or \
            string_attr(op, "qualname") == SESSION_RUN:
        return True
    if strict and depth > 0 and (func := called_function(op)) is not None and \
            not same_op(func, enclosing_scope(op)) and _function_works(func, depth - 1):
        return True
    if not strict and not string_attr(op, "harp.receiver") and \
            string_attr(op, "qualname").startswith(("torch.", "tensorflow.")) and \
            string_attr(op, "effect") in ("pure", "random"):
        return True  # tensor computation (`tf.matmul(x, w)`), not just a conversion
    callee = producer(op.operands[0])
    if callee is None:
        return False
    kind = string_attr(callee, "harp.kind")
    if kind == "module" or (not strict and kind == "function" and not string_attr(
            op, "qualname").startswith(("builtins.", "numpy."))):
        return True
    if not strict and callee.name == "host.getattr" and called_function(op) is not None:
        return True  # a method of a class of the file (`agent.act(state)`)
    # a callable the program was given (`model(x)` of a parameter)
    return not strict and callee.name == "host.load" and not string_attr(op, "qualname") \
        and not kind and string_attr(callee, "scope") != "builtin"


@per_run()
def _function_works(func: ir.Operation, depth: int) -> bool:
    """Whether a call of the program function `func` runs model work itself (strict)."""
    return any(model_work_call(o, True, depth) for o in walk(func))


#: methods whose results a loop visits one parameter, buffer or submodule at a time
_PARAMETER_METHODS = ("parameters", "named_parameters", "buffers", "named_buffers",
                      "modules", "named_modules", "children", "named_children")


def over_parameters(loop: ir.Operation) -> bool:
    """Whether `loop` visits a model's parameters or submodules (`for p in
    model.parameters()`, `for name, p in model.named_parameters()`): an iteration per
    parameter, not per batch; hot only when it runs inside each step of a training loop."""
    iterable = producer(loop.operands[0]) if loop.name == "host.for" else None
    return iterable is not None and iterable.name == "host.call" and \
        string_attr(iterable, "method") in _PARAMETER_METHODS


def few_iterations(loop: ir.Operation, settings: bool = False) -> bool:
    """Whether `loop` is a `for` over a constant `range` of at most 16 iterations (with
    `settings`, also a setting's default: `range(args.policy_frequency)`), or over a
    literal display of at most 16 elements, a tensor or array made from one (`for one in
    torch.Tensor([h, e, l, l, o])`), or one made with at most 16 rows (`for xt in
    torch.randn(10, 3, 100)`)."""
    iterable = producer(loop.operands[0]) if loop.name == "host.for" else None
    return iterable is not None and (small_range(iterable, settings) or
                                     _small_display(loop.operands[0]))


#: constructors whose result has one element per element of the display they are given
_FROM_DISPLAY = ("torch.Tensor", "torch.tensor", "torch.FloatTensor", "torch.LongTensor",
                 "numpy.array", "numpy.asarray", "torch.autograd.Variable")


def _small_display(value: ir.Value, depth: int = 0) -> bool:
    """Whether `value` (seen through the name's reaching store) is a list or tuple display
    of at most 16 elements, or one of `_FROM_DISPLAY` made from such a value."""
    made = producer(value)
    if made is not None and made.name == "host.load" and depth < 4:
        made = reaching_definition(value, enclosing_scope(made))
    if made is None or depth > 4:
        return False
    if made.name in ("host.list", "host.tuple"):
        return len(made.operands) <= 16
    if made.name == "host.call" and string_attr(made, "qualname") in _FROM_DISPLAY and \
            len(made.operands) == 2:
        return _small_display(made.operands[1], depth + 1)
    if made.name == "host.call" and string_attr(made, "qualname") in _SIZED and \
            len(made.operands) > 1:  # `torch.randn(10, 3, 100)`: ten rows
        first = made.operands[1]
        shape = producer(first)
        if shape is not None and shape.name in ("host.tuple", "host.list") and shape.operands:
            first = shape.operands[0]  # `torch.zeros((10, 3))`
        rows = _constant_int(first)
        return isinstance(rows, int) and rows <= 16
    return False


#: constructors whose first argument (or the shape tuple's first entry) is the number of
#: rows a `for` over the result iterates
_SIZED = ("torch.randn", "torch.rand", "torch.zeros", "torch.ones", "torch.empty",
          "numpy.zeros", "numpy.ones", "numpy.empty", "numpy.random.randn",
          "numpy.random.rand")


def small_range(call: ir.Operation, settings: bool = False) -> bool:
    """`range(c)` or `range(a, c)` with constant bounds (literals, or names bound once to
    one, `num_batches = 6`; with `settings`, also what `setting_int` states) of at most 16
    iterations."""
    if call.name != "host.call" or string_attr(call, "qualname") != "builtins.range":
        return False
    bound = setting_int if settings else _constant_int
    bounds = [bound(v) for v in list(call.operands)[1:]]
    if not bounds or len(bounds) > 2 or not all(isinstance(b, int) for b in bounds):
        return False
    return (bounds[-1] - (bounds[0] if len(bounds) == 2 else 0)) <= 16


def function_named(value: ir.Value) -> ir.Operation | None:
    """The program's `host.func` a name refers to (`collate_fn=collate_batch`, a function
    of this file or one imported from the project), or None."""
    load = producer(value)
    if load is None or load.name != "host.load":
        return None
    for scope in binding_scopes(load):
        func = _function_made(definition(value, scope))
        if func is not None:
            return func
    return None


@per_run(key=lambda call: (call, not _RESOLVING_PARAMETERS))
def called_function(call: ir.Operation) -> ir.Operation | None:
    """The `host.func` a call of a local or module-level function runs, if this file
    defines it (`train(model, loader)` -> `def train`, through its decorators), or the
    method a call of an instance or of its method runs."""
    callee = producer(call.operands[0])
    if callee is not None and callee.name == "host.getattr":
        if _this_module(callee.operands[0], call):  # `d2l.grad_clipping(...)` in d2l
            module = host_module(call)
            stores = _stores(module).get(string_attr(callee, "attr"), [])
            return _function_made(producer(stores[0].operands[0])) if len(stores) == 1 \
                else None
        target = program_module_of(callee.operands[0])
        if target is not None:  # `import pkg.data as data; data.load(...)`
            return _function_made(_bound_in(target, string_attr(callee, "attr")))
        return _called_method(callee, call)
    if callee is None or callee.name != "host.load":
        return None
    for scope in binding_scopes(callee):
        func = _function_made(definition(call.operands[0], scope))
        if func is None and scope.name == "host.module" and \
                same_op(enclosing_scope(callee), scope):
            # a script's or a notebook's top level, a name defined again further on (a
            # notebook's second `play_one_step`): the definition its order reaches
            func = _function_made(reaching_definition(call.operands[0], scope))
        if func is not None:
            return func
    return _instance_call(call)


def call_qualname(call: ir.Operation) -> str:
    """The library name a call calls: its `qualname`, or, when the frontend could not
    know it yet, the import its callee's name is bound to where it is read (a class's
    method calling `Variable(...)` that the script imports further down, under `if
    __name__ == "__main__":`)."""
    known = string_attr(call, "qualname")
    callee = producer(call.operands[0]) if call.operands else None
    if known or callee is None:
        return known
    if callee.name == "host.getattr":  # `clock.tick(30)`, `clock = pygame.time.Clock()`
        made = _library_instance(callee.operands[0])
        return f"{made}.{string_attr(callee, 'attr')}" if made else ""
    if callee.name != "host.load":
        return ""
    for scope in binding_scopes(callee):
        made = definition(call.operands[0], scope)
        if made is not None and made.name == "host.import":
            return string_attr(made, "qualname")
    return ""


def _library_instance(value: ir.Value) -> str:
    """The library class a name holds an instance of, where it is read: the qualified name
    of the one library call that binds it, when that names a class (`FPSCLOCK =
    pygame.time.Clock()` at the top of the module; a factory, `gym.make(...)`, says
    nothing of its result's class), else ""."""
    load = producer(value)
    if load is None or load.name != "host.load":
        return ""
    for scope in binding_scopes(load):
        made = definition(value, scope)
        if made is not None:
            qualname = string_attr(made, "qualname") if made.name == "host.call" and \
                called_function(made) is None else ""
            return qualname if qualname.rpartition(".")[2][:1].isupper() else ""
    return ""


def binding_scopes(load: ir.Operation) -> list[ir.Operation]:
    """Where the name a `host.load` reads is bound, by Python's rule: its own scope when
    that scope binds the name anywhere (a parameter that shadows a global is not the
    global), else the module (also for a function defined further down the file, which
    the frontend had not seen yet); none for a builtin or an enclosing function's name."""
    scope, module = string_attr(load, "scope"), host_module(load)
    own = enclosing_scope(load)
    if scope == "" and (string_attr(load, "name") in _stores(own) or module is None or
                        same_op(own, module)):
        return [own]
    return [module] if scope in ("", "global") and module is not None else []


def _function_made(made: ir.Operation | None) -> ir.Operation | None:
    """The `host.func` that `made` binds: the def itself, or the def under decorators
    (`@torch.no_grad()` over it)."""
    while made is not None and made.name == "host.call" and \
            "harp.decorator" in made.attributes:
        made = producer(list(made.operands)[-1])
    return made if made is not None and made.name == "host.func" else None


def program_module_of(value: ir.Value) -> ir.Operation | None:
    """The file of the program (its host.module) that `value` is, when it is a name bound
    once to a module import (`import yolov3_tf2.dataset as dataset`, `from pkg import
    data` where `data` is a file of the program)."""
    load = producer(value)
    if load is None or load.name != "host.load":
        return None
    bound = stored_once(load)
    made = producer(bound) if bound is not None else None
    if made is None or made.name != "host.import":
        return None
    return _program_modules(made).get(string_attr(made, "qualname"))


def _this_module(value: ir.Value, at: ir.Operation) -> bool:
    """Whether `value` is the module that reads it: a global bound once to
    `sys.modules[__name__]` (d2l's `d2l = sys.modules[__name__]`)."""
    module = host_module(at)
    load = producer(value)
    if module is None or load is None or load.name != "host.load":
        return False
    if string_attr(load, "scope") != "global" and not same_op(enclosing_scope(load), module):
        return False  # a local of a function
    made = definition(value, module)
    if made is None or made.name != "host.getitem":
        return False
    table, key = (producer(v) for v in made.operands)
    return table is not None and string_attr(table, "qualname") == "sys.modules" and \
        key is not None and string_attr(key, "name") == "__name__" and \
        string_attr(key, "scope") == "builtin"


def _instance_call(call: ir.Operation) -> ir.Operation | None:
    """The method that calling an instance of a class of this file runs: its `__call__`,
    or the `forward` of a module subclass (`net = Net(); net(x)` runs `Net.forward`)."""
    cls = instance_class(call.operands[0], call)
    return _call_method(cls) if cls is not None else None


def _call_method(cls: ir.Operation) -> ir.Operation | None:
    """What calling an instance of `cls` runs: its `__call__`, or a module's `forward`
    (a Keras model's or layer's `call`)."""
    methods = class_methods(cls)
    if "__call__" in methods:
        return methods["__call__"]
    return methods.get("forward") or methods.get("call") if module_class(cls) else None


def _instance_classes(value: ir.Value) -> list[ir.Operation]:
    """The program classes `value` may be an instance of when the code binds it in several
    places, each to an instance of a program class or of a library's module: an attribute
    its class stores in several branches (`self.dist = Categorical(...)` or
    `DiagGaussian(...)`; `self.head = nn.Linear(...)` or `Attention(...)`, whose call runs
    no function of the program), a name bound so (`_classes_bound`)."""
    made = producer(value)
    if made is None:
        return []
    if made.name == "host.load":
        return _classes_bound(value) or _held_element_classes(made)
    if made.name == "host.getitem":  # `self.buffers[i].add(t)`
        return _element_classes(producer(made.operands[0]))
    if made.name != "host.getattr":
        return []
    classes = _attribute_classes(made, library=False)
    return classes if classes and all(c is not None for c in classes) else []


#: containers of modules whose elements a loop over them visits
_MODULE_CONTAINERS = ("torch.nn.ModuleList", "torch.nn.Sequential", "builtins.list")


def _held_element_classes(load: ir.Operation) -> list[ir.Operation]:
    """`for layer in self.layers: x = layer(x)`: the program classes of the modules the
    container attribute holds, as its class fills it (`nn.ModuleList([Block(...) for _ in
    range(n)])`, `nn.Sequential(A(), B())`, or `self.layers.append(Block(...))` in its
    methods); [] unless every element is a program class's instance."""
    store = binding_store(load)
    if store is None:
        return []
    element = store.operands[0]
    op = producer(element)
    if op is not None and op.name == "host.unpack":  # `for i, layer in enumerate(...)`
        if element.result_number != 1:
            return []
        element = op.operands[0]
    loop = element.owner.owner if isinstance(element.owner, ir.Block) else None
    if loop is None or loop.name != "host.for":
        return []
    iterable = producer(loop.operands[0])
    if iterable is not None and string_attr(iterable, "qualname") == "builtins.enumerate":
        if op is None or op.name != "host.unpack" or len(iterable.operands) < 2:
            return []
        iterable = producer(iterable.operands[1])
    elif op is not None and op.name == "host.unpack":
        return []
    return _element_classes(iterable)


def _element_classes(holder: ir.Operation | None) -> list[ir.Operation]:
    """The program classes of the elements of the container attribute `holder` reads
    (`self.layers`), as its class fills it: `nn.ModuleList([Block(...) for _ in
    range(n)])`, `nn.Sequential(A(), B())`, a list display (`[ReplayBuffer()]`), or
    `self.layers.append(Block(...))` in its methods; [] unless every element is a program
    class's instance."""
    if holder is None or holder.name != "host.getattr":
        return []
    owner = self_class(holder.operands[0])
    if owner is None:
        return []
    attr, module = string_attr(holder, "attr"), host_module(owner)
    held = []
    for store in _attribute_stores(owner).get(attr, []):
        made = producer(store.operands[1])
        if made is not None and made.name in ("host.list", "host.tuple"):
            held += list(made.operands)
            continue
        if made is None or made.name != "host.call" or \
                string_attr(made, "qualname") not in _MODULE_CONTAINERS:
            return []
        for given in list(made.operands)[1:]:
            held += _display_elements(given) if string_attr(made, "qualname") != \
                "torch.nn.Sequential" else [given]
    for o in walk(owner):  # `self.layers.append(Block(...))`
        callee = producer(o.operands[0]) if o.name == "host.call" and o.operands else None
        if string_attr(o, "method") == "append" and callee is not None and \
                callee.name == "host.getattr" and len(o.operands) == 2:
            target = producer(callee.operands[0])
            if target is not None and target.name == "host.getattr" and \
                    string_attr(target, "attr") == attr and \
                    same_op(self_class(target.operands[0]), owner):
                held.append(o.operands[1])
    classes = [_constructed_class(producer(v), module) for v in held]
    return classes if classes and all(c is not None for c in classes) else []


def _display_elements(value: ir.Value) -> list[ir.Value]:
    """The values a list or tuple display, or a list comprehension, is made of."""
    made = producer(value)
    if made is None:
        return []
    if made.name in ("host.list", "host.tuple"):
        return list(made.operands)
    if made.name == "host.comprehension":
        return [o.operands[0] for o in walk(made) if o.name == "host.append"]
    return []


def _library_module(made: ir.Operation | None) -> bool:
    """Whether `made` constructs a module of a library (`nn.Linear(...)`, named by its
    qualified name; a class of the program has none)."""
    return made is not None and made.name == "host.call" and \
        string_attr(made, "effect") == "construct" and \
        string_attr(made, "harp.kind") == "module" and bool(string_attr(made, "qualname"))


def module_class(cls: ir.Operation, framework: str = "") -> bool:
    """Whether a `host.class` subclasses a framework's module class (`nn.Module`; given
    `framework`, that framework's: "torch" for PyTorch), directly or through a class the
    frontend found to be one."""
    for base in cls.operands:
        made = producer(base)
        if made is None:
            continue
        found = MODULE_BASES.get(string_attr(made, "qualname")) or (
            string_attr(made, "harp.framework") if string_attr(made, "harp.kind") == "class"
            else "")
        if found and (not framework or found == framework):
            return True
    return False


def _called_method(attribute: ir.Operation, call: ir.Operation) -> ir.Operation | None:
    """The `host.func` that `obj.name(...)` runs when `obj` is an instance of a class of
    this file: `self` in one of its methods, or a local stored once from `Agent(...)`; the
    method may be inherited (`class DQN(BaseAgent)` runs `BaseAgent.step`)."""
    cls = instance_class(attribute.operands[0], call)
    return method_of(cls, string_attr(attribute, "attr")) if cls is not None else None


@per_run()
def _constructions(program: ir.Operation) -> list[tuple[ir.Operation, ir.Operation]]:
    """(the class, the call) for each construction of a program class in `program`."""
    found = []
    for site in walk(program):
        if site.name == "host.call":
            made = _constructed_class(site, host_module(site) or enclosing_scope(site))
            if made is not None and made.name == "host.class":
                found.append((made, site))
    return found


@per_run()
def stored_functions(cls: ir.Operation, name: str) -> list[ir.Operation]:
    """The functions of the program that `self.name(...)` in a method of `cls` runs when
    `cls` (or a base) stores a function in that attribute instead of defining the method:
    `self.get_batch = get_batch` in `__init__`, from the parameter every construction of
    `cls` or a subclass passes a program function for (by position or keyword: a trainer
    given its batch sampler), or a function of the program named directly. [] when any
    store or any construction gives something else."""
    stores = [o for c in [cls, *base_classes(cls)] for m in class_methods(c).values()
              for o in walk(m) if o.name == "host.setattr" and
              string_attr(o, "attr") == name and self_class(o.operands[0]) is not None]
    if len(stores) != 1:
        return []
    value = stores[0].operands[1]
    init = enclosing_scope(stores[0])
    load = producer(value)
    bound = stored_once(load) if load is not None and load.name == "host.load" else None
    if bound is None or not is_parameter(bound, init) or \
            string_attr(init, "sym_name") != "__init__":
        made = _function_made(definition(value, init))
        return [made] if made is not None else []
    position = list(bound.owner.arguments).index(bound)
    keyword = strings_attr(init, "arg_names")[position]
    found, instances = [], [cls, *subclasses(cls)]
    for made, site in _constructions(program_of(init)):
        if not any(same_op(made, c) for c in instances):
            continue  # a sibling class's instances (`self` is never one of them)
        if not same_op(method_of(made, "__init__"), init):
            return []  # a subclass with an `__init__` of its own: its arguments differ
        given = argument(site, position - 1, keyword)  # (after `self`)
        func = _function_made(definition(given, enclosing_scope(site))) \
            if given is not None else None
        if func is None:
            return []
        if not any(same_op(func, f) for f in found):
            found.append(func)
    return found


def method_of(cls: ir.Operation, name: str, depth: int = 0) -> ir.Operation | None:
    """The method `name` of a program class, its own or inherited from a base class of the
    program (in another file too), bases searched left to right."""
    own = class_methods(cls).get(name)
    if own is not None or depth > 8:
        return own
    for base in base_classes(cls):
        found = method_of(base, name, depth + 1)
        if found is not None:
            return found
    return None


def base_classes(cls: ir.Operation) -> list[ir.Operation]:
    """The bases of a `host.class` that are classes of the program (`Base_Agent` imported
    from agents/base_agent.py)."""
    found = []
    scope = host_module(cls) or enclosing_scope(cls)
    for base in cls.operands:
        made = definition(base, scope)
        if made is not None and made.name == "host.class":
            found.append(made)
    return found


@per_run()
def _direct_subclasses(program: ir.Operation) -> dict[ir.Operation, list[ir.Operation]]:
    """host.class -> the classes of the program that name it as a base."""
    table: dict = {}
    for op in walk(program):
        if op.name == "host.class":
            for base in base_classes(op):
                table.setdefault(base, []).append(op)
    return table


def subclasses(cls: ir.Operation) -> list[ir.Operation]:
    """Every class of the program that derives from `cls`, directly or not."""
    table = _direct_subclasses(program_of(cls))
    found, work = [], list(table.get(cls, []))
    while work and len(found) < 64:
        sub = work.pop()
        if not any(same_op(sub, f) for f in found):
            found.append(sub)
            work.extend(table.get(sub, []))
    return found


def called_functions(call: ir.Operation) -> list[ir.Operation]:
    """Every function of the program a call may run: the one `called_function` finds; for
    `self.name(...)` in a class, also the overrides of `name` in its subclasses (a base
    class's loop calling `self.learn()` runs `DQN.learn`); for `obj.name(...)` with `obj`
    bound in several places to instances of different classes (`policy = TD3(...)` in one
    branch, `DDPG(...)` in another), the method of each."""
    one = called_function(call)
    found = [one] if one is not None else []
    if not found:  # an instance called: `self.dist(x)` with `self.dist` one of several
        found = [m for cls in _instance_classes(call.operands[0])
                 if (m := _call_method(cls)) is not None]
    callee = producer(call.operands[0])
    if callee is None or callee.name != "host.getattr":
        return found
    name = string_attr(callee, "attr")
    owner = self_class(callee.operands[0])
    if not found and owner is not None:  # `self.get_batch(...)`: a function it was given
        found = stored_functions(owner, name)
    if owner is not None:
        classes = subclasses(owner)
    elif not found:
        classes = _classes_bound(callee.operands[0])
    else:
        classes = []
    for cls in classes:
        method = method_of(cls, name)
        if method is not None and not any(same_op(method, f) for f in found):
            found.append(method)
    if not found and owner is not None:
        found = _held_methods(owner, name)
    return found or _by_method_name(call, callee)


def _held_methods(cls: ir.Operation, attr: str) -> list[ir.Operation]:
    """The method `self.attr` holds when its class binds it only to one of its own bound
    methods (`self.update_target = self.polyak_update`): calling it runs that method.
    [] when any binding is another value, or when the class chooses between methods
    (`self.polyak_update if polyak else self.copy_update`): which one runs is the
    program's setting, and a blind reader found the one a default run never takes."""
    found = []
    for store in _attribute_stores(cls).get(attr, []):
        for value in _alternatives(store.operands[1]):
            get = producer(value)
            method = method_of(cls, string_attr(get, "attr")) if get is not None and \
                get.name == "host.getattr" and self_class(get.operands[0]) is not None \
                else None
            if method is None:
                return []
            if not any(same_op(method, f) for f in found):
                found.append(method)
    return found if len(found) == 1 else []


def _alternatives(value: ir.Value) -> list[ir.Value]:
    """The values a conditional expression may give (`a if c else b`: a and b), else
    `value` itself."""
    made = producer(value)
    if made is None or made.name != "host.if" or len(made.results) != 1:
        return [value]
    found = []
    for region in made.regions:
        last = region.blocks[0].operations[len(region.blocks[0].operations) - 1]
        if last.operation.name != "hostcf.yield" or len(last.operation.operands) != 1:
            return [value]
        found += _alternatives(last.operation.operands[0])
    return found


#: method names every library object answers to: a receiver nothing resolves is as likely
#: a library's environment, module or container as the program's class
_PROTOCOL_NAMES = frozenset({
    "step", "reset", "render", "close", "seed", "forward", "train", "eval", "to", "cuda",
    "cpu", "state_dict", "load_state_dict", "parameters", "zero_grad", "backward", "item",
    "append", "extend", "add", "get", "put", "pop", "sample", "run", "save", "load",
    "write", "read", "log", "info", "format", "copy", "clear", "keys", "values", "items"})
#: roots of libraries whose objects harp's catalogue describes (or that hold no program
#: class): a receiver one of them made is theirs, not the program's
_LIBRARY_ROOTS = ("torch", "tensorflow", "keras", "numpy", "gym", "gymnasium", "jax",
                  "builtins", "collections", "random", "os", "sys")


def _by_method_name(call: ir.Operation, callee: ir.Operation) -> list[ir.Operation]:
    """Class hierarchy analysis where nothing else resolves the receiver: `self.agent.
    update(buffer, logger, step)` with `self.agent` made by a factory the program cannot
    follow (`hydra.utils.instantiate(cfg.agent)`) runs the program's `update` when one
    class hierarchy of the program defines a method of that name taking those arguments
    (the base and its overrides). Names every library object has (`step`, `reset`) and
    receivers made otherwise are left unresolved."""
    name = string_attr(callee, "attr")
    holder = producer(callee.operands[0])
    owner = self_class(holder.operands[0]) if holder is not None and \
        holder.name == "host.getattr" else None
    if owner is None or name.startswith("_") or name in _PROTOCOL_NAMES:
        return []
    methods = [m for m in _methods_named(program_of(call)).get(name, [])
               if _accepts(m, call)]  # the cheap question first: most names have none
    stores = _attribute_stores(owner).get(string_attr(holder, "attr"), []) if methods \
        else []
    if not stores or not all(_made_by_factory(s.operands[1]) for s in stores):
        return []
    roots = []
    for method in methods:
        root = _hierarchy_root(method.parent)
        if not any(same_op(root, r) for r in roots):
            roots.append(root)
    return methods if len(roots) == 1 else []


def _made_by_factory(value: ir.Value) -> bool:
    """Whether `value` comes from a library call harp knows nothing of (no kind, no
    catalogued effect), outside the frameworks: a factory that builds objects by name."""
    made = producer(value)
    qualname = string_attr(made, "qualname") if made is not None else ""
    return made is not None and made.name == "host.call" and bool(qualname) and \
        qualname.split(".", 1)[0] not in _LIBRARY_ROOTS and \
        string_attr(made, "effect") in ("", "unknown") and "harp.kind" not in made.attributes \
        and called_function(made) is None


@per_run()
def _methods_named(program: ir.Operation) -> dict[str, list[ir.Operation]]:
    """The methods of the program's classes, by name."""
    found: dict[str, list[ir.Operation]] = {}
    for op in walk(program):
        if op.name == "host.class":
            for name, method in class_methods(op).items():
                found.setdefault(name, []).append(method)
    return found


def _hierarchy_root(cls: ir.Operation, depth: int = 0) -> ir.Operation:
    bases = base_classes(cls)
    return _hierarchy_root(bases[0], depth + 1) if bases and depth < 8 else cls


def _accepts(method: ir.Operation, call: ir.Operation) -> bool:
    """Whether a method (called on an instance: its first parameter is bound) takes the
    call's arguments: as many positional ones as it has, at least those without a
    default, and keywords among its parameter names."""
    kinds = strings_attr(method, "arg_kinds")[1:]
    names = strings_attr(method, "arg_names")[1:]
    given = strings_attr(call, "kwnames")
    if any(k.startswith("*") for k in given):
        return False
    positional = sum(1 for k in given if not k)
    slots = sum(1 for k in kinds if k in ("positional", "posonly"))
    required = len(kinds) - len(list(method.operands)) - \
        sum(1 for k in kinds if k in ("vararg", "kwarg"))
    if positional > slots and "vararg" not in kinds:
        return False
    if any(k and k not in names for k in given) and "kwarg" not in kinds:
        return False
    return positional + sum(1 for k in given if k) >= required


def _classes_bound(value: ir.Value) -> list[ir.Operation]:
    """The program classes a name is bound to instances of, when every store of it in its
    scope constructs one (`policy = TD3.TD3(...)` or `DDPG.DDPG(...)`), or when it is a
    parameter and every call passes an instance of a program class (`run(SAC(), env)`,
    `run(DQN(), env)`)."""
    load = producer(value)
    if load is None or load.name != "host.load":
        return []
    for scope in binding_scopes(load):
        stores = _class_stores(scope, string_attr(load, "name"))
        classes = [_constructed_class(producer(_unpacked(s.operands[0])),
                                      host_module(load) or scope) for s in stores]
        if stores and all(c is not None for c in classes):
            return classes
    classes = _passed_classes(value)
    return classes if all(c is not None for c in classes) else []


def class_methods(cls: ir.Operation) -> dict[str, ir.Operation]:
    """The `host.func`s a `host.class` body defines, by name."""
    return {string_attr(op.operation, "sym_name"): op.operation
            for op in cls.regions[0].blocks[0].operations if op.operation.name == "host.func"}


def self_class(value: ir.Value) -> ir.Operation | None:
    """The `host.class` whose method reads `value` as its first parameter (`self`)."""
    load = producer(value)
    func = enclosing_scope(load) if load is not None and load.name == "host.load" else None
    if func is None or func.name != "host.func" or func.parent is None or \
            func.parent.name != "host.class":
        return None
    names = strings_attr(func, "arg_names")
    return func.parent if names and names[0] == string_attr(load, "name") else None


def instance_class(value: ir.Value, at: ir.Operation) -> ir.Operation | None:
    """The `host.class` of this file that `value` (read at `at`) is an instance of, where
    the code says: `self` in a method, a local or global stored once from `Cls(...)`, an
    attribute `self.x` its class stores once from one, or a parameter every call of its
    function passes an instance of the same class (`evaluate(loader, net)`)."""
    load = producer(value)
    if load is not None and load.name == "host.getattr":
        return _attribute_class(load)
    if load is not None and load.name == "host.getitem":  # `self.buffers[i]`
        classes = _element_classes(producer(load.operands[0]))
        return classes[0] if classes and all(same_op(c, classes[0]) for c in classes) \
            else None
    if load is not None and load.name == "host.call":  # `evaluate(loader, Net())`
        return _constructed_class(load, host_module(at) or enclosing_scope(at))
    if load is None or load.name != "host.load":
        return None
    owner = self_class(value)
    if owner is not None:
        return owner
    made = reaching_definition(value, enclosing_scope(load)) \
        if reaching_store(load) is not None else None  # what straight-line code binds
    cls = _constructed_class(made, host_module(at) or enclosing_scope(load))
    if cls is not None:
        return cls
    for where in binding_scopes(load):
        stores = _class_stores(where, string_attr(load, "name"))
        made = producer(_unpacked(stores[0].operands[0])) if len(stores) == 1 else None
        if made is not None and made.name == "host.import":
            made = imported(made)
        cls = _constructed_class(made, host_module(at) or where)
        if cls is not None:
            return cls
    classes = _passed_classes(value)
    return classes[0] if classes and all(same_op(c, classes[0]) for c in classes) else None


#: module methods that return the module itself: `net = net.to(device)` keeps its class
_RETURNS_SELF = frozenset({"to", "cuda", "cpu", "train", "eval", "float", "double", "half",
                           "requires_grad_", "share_memory"})


def _class_stores(scope: ir.Operation, name: str) -> list[ir.Operation]:
    """The stores of `name` in `scope` that may bind it to an instance of another class:
    `net = net.cuda()` (a module method returning the module) and `net =
    nn.DataParallel(net).to(device)` (a wrapper that runs it) are left out, and so is
    `import model` before `model = model.RNNModel(...)` (a module is no instance), and so
    is `agent = None` (an object released or not made yet: a method called on the name, or
    on the parameter it is passed for, cannot run on None)."""
    found = []
    for store in _stores(scope).get(name, []):
        made = producer(store.operands[0])
        if made is not None and ((made.name == "host.import" and not string_attr(made, "name"))
                                 or (made.name == "host.constant" and
                                     string_attr(made, "kind") == "none")):
            continue
        inner = _unwrapped(made)
        load = producer(inner) if inner is not None else None
        if (load is None or load.name != "host.load" or string_attr(load, "name") != name) \
                and not _restored(made, scope):
            found.append(store)
    return found


def _unwrapped(made: ir.Operation | None) -> ir.Value | None:
    """The module a call returns or runs, when it is one it was given: the receiver of a
    module method that returns the module (`net.to(device)`), the argument of a wrapper
    (`nn.DataParallel(net)`), through several (`nn.DataParallel(net).cuda()`); None for
    any other op."""
    found = None
    while made is not None and made.name == "host.call":
        if string_attr(made, "method") in _RETURNS_SELF and receiver(made) is not None:
            found = receiver(made)
        elif string_attr(made, "qualname") in catalogue.load().module_wrappers and \
                (wrapped := next((v for k, v in call_arguments(made) if k in ("", "module")),
                                 None)) is not None:
            found = wrapped
        else:
            break
        made = producer(found)
    return found


def _restored(made: ir.Operation | None, scope: ir.Operation) -> bool:
    """Whether `made` is an object unpickled by `torch.load` (`checkpoint['decoder']` of
    `checkpoint = torch.load(path)`): an instance of a class the program defines, as the
    program's other store of the name builds it, so it does not hide that class."""
    for _ in range(3):
        if made is None:
            return False
        if made.name == "host.getitem":
            made = definition(made.operands[0], scope)
            continue
        return made.name == "host.call" and string_attr(made, "qualname") == "torch.load"
    return False


def _passed_classes(value: ir.Value) -> list[ir.Operation | None]:
    """For a parameter: the program class of what each call of its function passes for
    it (None where unknown); [] when there are no such calls."""
    passed = passed_arguments(value)
    if not passed:
        return []
    with _one_level_of_parameters():  # the arguments' own classes: no further parameters
        return [instance_class(argument, call) for argument, call in passed]


def constructed_class(made: ir.Operation) -> ir.Operation | None:
    """The `host.class` of the program that the call `made` constructs, looked up where
    the call is (`Decoder(...)` in `__init__`); None for any other op."""
    if made is None:
        return None
    return _constructed_class(made, enclosing_scope(made)) or \
        _constructed_class(made, host_module(made))


def _constructed_class(made: ir.Operation | None, scope: ir.Operation) -> ir.Operation | None:
    """The `host.class` of this file that the call `made` constructs (`Cls(...)`, the name
    `Cls` looked up in `scope`); None for any other op."""
    if made is None or made.name != "host.call":
        return None
    inner = _unwrapped(made)  # `Net().to(device)`, `nn.DataParallel(Net())`
    if inner is not None:
        return _constructed_class(producer(inner), scope)
    cls = definition(made.operands[0], scope)
    if cls is not None and cls.name == "host.getattr":
        cls = module_attribute(cls, scope)
    elif cls is not None and cls.name == "host.import":  # `from modules.head import Head`
        cls = imported(cls)
    return cls if cls is not None and cls.name == "host.class" else None


def module_attribute(attribute: ir.Operation, scope: ir.Operation) -> ir.Operation | None:
    """What `mod.name` is when `mod` is bound by `import mod` to a file of the analysed
    program (`TD3.TD3` of main.py is the class in TD3.py), else None. `mod` is the binding
    that reaches the read (`model = model.RNNModel(...)` reads the imported module)."""
    read = producer(attribute.operands[0])
    reached = reaching_store(read) if read is not None and read.name == "host.load" else None
    made = producer(reached.operands[0]) if reached is not None else \
        definition(attribute.operands[0], scope)
    if made is None or made.name != "host.import":
        return None
    module = string_attr(made, "module")
    if string_attr(made, "name"):  # `from pkg import mod`: a module of the package
        module = f"{module}.{string_attr(made, 'name')}"
    target = _program_modules(made).get(module)
    return _bound_in(target, string_attr(attribute, "attr")) if target else None


def _attribute_class(attribute: ir.Operation) -> ir.Operation | None:
    """The class of this file whose instance `self.x` holds, when `self`'s class stores
    `self.x` in one place, from `Cls(...)` (`self.cache = Cache(model)` in `fit`)."""
    classes = _attribute_classes(attribute)
    return classes[0] if len(classes) == 1 else None


def _attribute_classes(attribute: ir.Operation,
                       library: bool = True) -> list[ir.Operation | None]:
    """For each store of `self.x` in `self`'s class, the class it constructs (None where
    it constructs none; a library's module left out unless `library`); [] when `self` is
    not an instance of a class of the file."""
    owner = self_class(attribute.operands[0])
    module = host_module(owner) if owner is not None else None
    if module is None:
        return []
    stores = _attribute_stores(owner).get(string_attr(attribute, "attr"), [])
    made = [producer(_unpacked(s.operands[1])) for s in stores]  # `self.a, self.b = A(), B()`
    return [_constructed_class(m, module) for m in made if library or not _library_module(m)]


def made_once(value: ir.Value) -> ir.Operation | None:
    """The op that makes `value` when the program binds it in one place: a name stored
    once where it is bound, or by the store straight-line code reads it from (`opt =
    Adam(...)` just above, though a later phase binds `opt` again), or `self.x` its class
    stores once (`self.train_op = optimizer.minimize(loss)` in `__init__`); None for a name
    bound elsewhere or more than once; any other value's own producer."""
    op = producer(value)
    if op is not None and op.name == "host.load":
        if reaching_store(op) is not None:  # the binding straight-line code reads
            return reaching_definition(value, enclosing_scope(op))
        for scope in binding_scopes(op):
            found = definition(value, scope)
            if found is not None:
                return found
        return None
    if op is not None and op.name == "host.getattr":
        cls = self_class(op.operands[0])
        stores = making_stores(cls, string_attr(op, "attr")) if cls else []
        if len(stores) == 1:
            return producer(_unpacked(stores[0].operands[1]))
    return op


def making_stores(cls: ir.Operation, attr: str) -> list[ir.Operation]:
    """The stores `self.attr = ...` of the class's methods that make what it holds: a
    `self.opt = None` in `__init__`, declaring what a later method (`build_model()`) makes,
    is left out, since no method can call anything on it; all stores when another
    method sets it to None too (then None is a state the object is in)."""
    stores = _attribute_stores(cls).get(attr, [])
    placeholders = [s for s in stores if constant_value(s.operands[1]) is None]
    if any(string_attr(enclosing_scope(s), "sym_name") != "__init__" for s in placeholders):
        return stores
    return [s for s in stores if not any(same_op(s, p) for p in placeholders)]


@per_run()
def self_attribute_stores(attribute: ir.Operation) -> list[ir.Operation] | None:
    """The stores `self.x = ...` in its class of `self.x` read in a method (the
    attribute op); None when the attribute is not read on `self`."""
    cls = self_class(attribute.operands[0])
    if cls is None:
        return None
    return _attribute_stores(cls).get(string_attr(attribute, "attr"), [])


def in_other_file(op: ir.Operation, at: ir.Operation) -> str:
    """" in agent.py" when `op` is in another file of the program than `at`, else "":
    a message at `at` naming a line of `op`'s file says which file."""
    there = host_module(op)
    if there is None or same_op(host_module(at), there):
        return ""
    return f" in {Path(string_attr(there, 'filename')).name}"


def _attribute_stores(cls: ir.Operation) -> dict[str, list[ir.Operation]]:
    """The stores `self.x = ...` of a class's methods, by attribute; `setattr(self, ...)`
    with a computed name counts as a store of every attribute."""
    found: dict[str, list[ir.Operation]] = {}
    for o in walk(cls):
        if o.name == "host.setattr" and same_op(self_class(o.operands[0]), cls):
            found.setdefault(string_attr(o, "attr"), []).append(o)
        elif o.name == "host.call" and string_attr(o, "qualname") == "builtins.setattr":
            found = {}  # any attribute may be rebound: nothing is stored once
            break
    return found


_RESOLVING_PARAMETERS = False  # one level of parameter passing per question


@contextmanager
def _one_level_of_parameters():
    """While it is open, `passed_arguments` answers None: a question about a parameter
    does not lead to questions about its callers' parameters (nor back to itself)."""
    global _RESOLVING_PARAMETERS
    _RESOLVING_PARAMETERS = True
    try:
        yield
    finally:
        _RESOLVING_PARAMETERS = False


def from_loop_element(value: ir.Value, loop: ir.Operation) -> bool:
    """Whether `value` is the loop's variable or a part of it (`t, p` of a zip, `next_state`
    of `for state, action, reward, next_state, done in minibatch`)."""
    op = producer(value)
    if op is not None and op.name == "host.unpack":
        value = op.operands[0]
    return any(value == arg for arg in loop.regions[0].blocks[0].arguments)


def is_parameter(value: ir.Value, func: ir.Operation) -> bool:
    """Whether `value` is a parameter of the `host.func` `func` (an argument of its own
    block), not a loop's or a comprehension's variable."""
    block = value.owner
    return func.name == "host.func" and isinstance(block, ir.Block) and \
        same_op(block.owner, func)


def argument(call: ir.Operation, position: int, keyword: str | None) -> ir.Value | None:
    """What `call` passes for a parameter: the argument named `keyword`, else the
    positional one at `position` (0 the first), unless a starred argument hides where
    it is; None when neither is given."""
    args = call_arguments(call)
    given = next((v for k, v in args if k and k == keyword), None)
    if given is not None or position < 0 or any(k.startswith("*") for k, _ in args):
        return given
    positional = [v for k, v in args if not k]
    return positional[position] if position < len(positional) else None


def parameter_bound(func: ir.Operation, call: ir.Operation, index: int) -> ir.Value | None:
    """The block argument of `func` that the call's operand `index` (a positional
    argument, the callee being operand 0) binds; None for a keyword, or after a star
    (`f(*xs, v)`: the position is not known)."""
    args = call_arguments(call)
    if index - 1 >= len(args) or any(k for k, _ in args[:index]):
        return None
    block = func.regions[0].blocks[0]
    is_method = func.parent is not None and func.parent.name == "host.class"
    position = index - 1 + (1 if is_method else 0)
    return block.arguments[position] if position < len(block.arguments) else None


def passed_arguments(value: ir.Value, defaults: bool = False
                     ) -> list[tuple[ir.Value | None, ir.Operation]] | None:
    """The argument every call in this file of the function reading the parameter `value`
    passes for it, each with its call (`evaluate(loader, net)` gives `net` for `model`);
    None when `value` is not a parameter read, the function has no calls, or a call
    passes it through `*args`/`**kwargs` or leaves it to its default (with `defaults`,
    such a call gives None for the argument instead)."""
    load = producer(value)
    if _RESOLVING_PARAMETERS or load is None or load.name != "host.load":
        return None
    func = enclosing_scope(load)
    stored = stored_once(load)
    if stored is None:  # a parameter rebound later: `x = x.view(...)` after this load
        reached = reaching_store(load)
        stored = reached.operands[0] if reached is not None else None
    if stored is None or not is_parameter(stored, func):
        return None
    index = list(stored.owner.arguments).index(stored)
    names, kinds = strings_attr(func, "arg_names"), strings_attr(func, "arg_kinds")
    if index >= len(names) or kinds[index] in ("vararg", "kwarg"):
        return None
    decorators = strings_attr(func, "harp.decorators")
    is_method = func.parent is not None and func.parent.name == "host.class" and \
        "staticmethod" not in decorators
    position = index - 1 if is_method else index  # `self` is the receiver
    if kinds[index] == "kwonly":
        position = -1
    with _one_level_of_parameters():
        starts = thread_starts(func)
        calls = calls_of(func) + starts
    found = []
    for call in calls:
        args = thread_arguments(call) if any(same_op(call, s) for s in starts) else \
            call_arguments(call)
        if args is None:
            return None
        if any(k.startswith("*") for k, _ in args):
            return None
        keyword = [v for k, v in args if k == names[index]]
        positional = [v for k, v in args if not k]
        if keyword:
            found.append((keyword[0], call))
        elif 0 <= position < len(positional):
            found.append((positional[position], call))
        elif defaults:
            found.append((None, call))
        else:
            return None
    return found or None


def stated_int(value: ir.Value, depth: int = 0) -> int | None:
    """The int `value` holds on every path the program shows: what `setting_int` states,
    and for a parameter, the same int from every call of its function, each passing it or
    leaving it to the default (`def train(x, y, epochs=1)` called as `train(x, y)`), the
    arguments read the same way up to three calls up (`sample(batch_size)` in
    `update(buffer, batch_size)`, called with `batch_size = 100`); None when calls differ
    or any is unknown."""
    passed = passed_arguments(value, defaults=True) if depth <= 3 else None
    if not passed:
        return setting_int(value)
    default = setting_int(value)
    found = {default if argument is None else stated_int(argument, depth + 1)
             for argument, _ in passed}
    return found.pop() if len(found) == 1 and None not in found else None


def program_of(op: ir.Operation) -> ir.Operation:
    """The program holding `op`: the builtin.module that holds every file analysed with
    it."""
    while op.parent is not None:
        op = op.parent
    return op


def reads_names(value: ir.Value, names: set[str], depth: int = 0) -> bool:
    """Whether the expression computing `value` loads one of `names` (through operands,
    not into regions)."""
    op = value.owner.operation if hasattr(value.owner, "operation") else None
    if op is None or depth > 12:
        return False
    if op.name == "host.load":
        return string_attr(op, "name") in names
    return not op.regions and any(reads_names(v, names, depth + 1) for v in op.operands)


def calls_of(func: ir.Operation) -> list[ir.Operation]:
    """The calls of `func` in the whole program (every file analysed with it: a method of
    agent.py's class called from main.py's loop)."""
    if host_module(func) is None:
        return []
    return _calls_table(program_of(func), not _RESOLVING_PARAMETERS).get(func, [])


@per_run()
def _calls_table(program: ir.Operation, through_parameters: bool) -> dict:
    """host.func -> its calls in `program`: one pass over the program answers every
    function (`through_parameters`, the resolution mode in force, is part of the key)."""
    found: dict = {}
    for c in walk(program):
        if c.name == "host.call":
            for callee in called_functions(c):
                found.setdefault(callee, []).append(c)
    return found


def thread_starts(func: ir.Operation) -> list[ir.Operation]:
    """The calls that run `func` in a thread or a process of the program
    (`threading.Thread(target=worker, args=(agent, env))`): its parameters take `args`."""
    if host_module(func) is None:
        return []
    return _thread_table(program_of(func)).get(func, [])


@per_run()
def _thread_table(program: ir.Operation) -> dict:
    found: dict = {}
    starters = catalogue.load().thread_starters
    for c in walk(program):
        if c.name == "host.call" and string_attr(c, "qualname") in starters:
            target = thread_target(c)
            if target is not None:
                found.setdefault(target, []).append(c)
    return found


def thread_target(call: ir.Operation) -> ir.Operation | None:
    """The function of the program a thread or process start runs (`target=worker`,
    `target=self.train_worker`), or None."""
    target = dict(call_arguments(call)).get("target")
    made = producer(target) if target is not None else None
    if made is None:
        return None
    if made.name == "host.getattr":
        return _called_method(made, call)
    return function_named(target)


def thread_arguments(call: ir.Operation) -> list[tuple[str, ir.Value]] | None:
    """The arguments a thread start passes its target: the `args=` tuple, positionally
    ([] without one); None when they cannot be read (`kwargs=`, `args` not a tuple)."""
    given = dict(call_arguments(call))
    if "kwargs" in given:
        return None
    args = given.get("args")
    if args is None:
        return []
    made = producer(args)
    if made is None or made.name != "host.tuple":
        return None
    return [("", v) for v in made.operands]


def call_in_loop(func: ir.Operation,
                 compilers=("tensorflow.function",)) -> ir.Operation | None:
    """A call of `func` (a function of this file) inside a loop, outside code `compilers`
    compile: a statement of `func` then runs once per iteration of that loop."""
    return next((c for c in calls_of(func) if enclosing_loop(c) is not None and
                 not in_compiled_function(c, compilers)), None)


def loop_of(op: ir.Operation) -> tuple[ir.Operation, ir.Operation | None,
                                       ir.Operation] | None:
    """(loop, func, site): the loop `op` runs in, its own or, for a statement of a function
    of the program (`func`) with no loop of its own, a loop around a call of that function
    or of a caller, up to four calls up (`site`, the call in that loop; else `op` itself):
    the one running it most often, every iteration first, a loop of the program's training
    work before any other (an acting helper a training loop and an evaluation loop both
    call runs per training step). None when it runs in no loop."""
    from harp_ir import callgraph

    loop = enclosing_loop(op)
    if loop is not None:
        return loop, None, op
    scope = enclosing_scope(op)
    ctx = callgraph.per_step(op, callgraph.training_work) or \
        callgraph.per_step(op, lambda loop: True) if scope.name == "host.func" else None
    return (ctx.loop, scope, ctx.site) if ctx is not None else None


def paced(op: ir.Operation, ran_in: ir.Operation | None = None) -> Assumption | None:
    """A high-risk "hot-loop" speculation when a loop that runs `op` on every iteration
    (its own, or one around a call of its function; given `ran_in`, the loop a rule found
    runs it, and those around it) also waits every iteration, on purpose
    (`plt.pause(0.05)` to animate a plot, `time.sleep`) or for a round trip far longer
    than a device sync (`rpc.rpc_sync`, Hugging Face `model.generate`), directly or in a
    function of this file it calls: per-iteration costs are lost in the wait. None when
    no such loop."""
    if ran_in is not None:
        loops = [ran_in, *loops_around(ran_in)]
    else:
        func = enclosing_scope(op)
        site = call_in_loop(func) if func.name == "host.func" else None
        loops = loops_around(op) + (loops_around(site) if site is not None else [])
    for depth, loop in enumerate(loops):
        if depth and ran_in is not None and not all(few_iterations(inner)
                                                   for inner in loops[:depth]):
            break  # `plt.show()` once an epoch does not pace the steps of its loop of batches
        waits = _loop_waits(loop)
        if waits:
            return Assumption("hot-loop", describe_loop(loop), "high", "speculated",
                              f"the loop waits every iteration ({waits}): a "
                              f"per-iteration cost is lost in the wait")
    return None


@per_run()
def _loop_waits(loop: ir.Operation) -> str:
    """What a call of `loop`'s own body that runs every iteration waits on ("" if none). A
    method known by name (a library environment's `render()`) paces only a loop that is
    not the program's training work, with no `if args.render:` around it: beside training,
    blind readers judged drawing a frame a cost of its own, not a wait that hides the
    step's."""
    from harp_ir import callgraph

    for call in walk(loop):
        if call.name != "host.call" or not same_op(enclosing_loop(call), loop):
            continue
        waits, by_name = _waits(call, 0)
        if waits.startswith(f"`{_SHOW}`") and not _draws(loop):
            continue  # nothing new to show: `plt.show()` returns at once
        if waits and frequency(call, loop).kind == "always" and \
                not (by_name and (any(True for _ in branches(call, loop)) or
                                  callgraph.training_work(loop))):
            return waits
    return ""


_SHOW = "matplotlib.pyplot.show"


def _draws(loop: ir.Operation) -> bool:
    """Whether `loop` draws with matplotlib (`plt.plot`, `ax.imshow` of a figure it made),
    in its body or in a function of the program it calls: `plt.show()` in a loop that
    draws nothing has no new figure to show, and returns at once."""
    calls = [c for c in walk(loop) if c.name == "host.call"]
    calls += [c for call in calls for func in called_functions(call) for c in walk(func)
              if c.name == "host.call"]
    return any(call_qualname(c).startswith("matplotlib.") and
               call_qualname(c) not in (_SHOW, "matplotlib.pyplot.ion",
                                        "matplotlib.pyplot.ioff") for c in calls)


@per_run()
def _waits(call: ir.Operation, depth: int) -> tuple[str, bool]:
    """What makes the host wait when `call` runs, as a phrase ("" when nothing known): a
    pacing or blocking call of the catalogue, a method known by its name or keywords, or
    one of them that a function of this file runs on every call of it (two calls deep);
    and whether the wait is such a method of an object harp cannot type."""
    known = catalogue.load()
    qualname = call_qualname(call)
    if qualname in known.pacing_calls or qualname in known.blocking_calls:
        return f"`{qualname}`", False
    func = called_function(call)  # the program's own `render()`: what its body does
    untyped = not string_attr(call, "qualname") and func is None
    if string_attr(call, "method") in known.pacing_methods and untyped:
        return f"`.{string_attr(call, 'method')}()`", True
    keywords = known.blocking_methods.get(string_attr(call, "method"))
    keyword = next((k for k, _ in call_arguments(call) if k in (keywords or ())), "")
    if keyword and untyped:
        return f"`.{string_attr(call, 'method')}({keyword}=...)`", True
    if func is None or depth >= 2:
        return "", False
    for inner in walk(func):
        if inner.name == "host.call" and _always_runs(inner, func):
            waits, by_name = _waits(inner, depth + 1)
            if waits:
                owner = func.parent if func.parent is not None and \
                    func.parent.name == "host.class" else None
                name = string_attr(func, "sym_name")
                return f"{waits} in `{string_attr(owner, 'sym_name') + '.' if owner else ''}" \
                       f"{name}`", by_name
    return "", False


def _always_runs(op: ir.Operation, func: ir.Operation) -> bool:
    """Whether `op` runs on every call of `func` that gets to it: it sits in no branch or
    loop of its body (a `with` block is fine)."""
    parent = op.parent
    while parent is not None and not same_op(parent, func):
        if parent.name != "host.with":
            return False
        parent = parent.parent
    return parent is not None


def called_rarely(func: ir.Operation) -> Frequency | None:
    """The guard under which a function of this file runs, when every call of it sits in a
    loop under a periodic or one-iteration guard (`if step % 400 == 0: sample_images()`):
    then the loops inside it are cold however many times they iterate. None when some call
    runs every iteration, or outside a loop, or there is no call."""
    found = None
    for call in calls_of(func):
        loop = enclosing_loop(call)
        how_often = frequency(call, loop) if loop is not None else None
        if how_often is None or how_often.kind not in RARE:
            return None
        found = how_often
    return found


def runs_inner_loop(loop: ir.Operation, op: ir.Operation, steps: bool = False) -> bool:
    """Whether an iteration of `loop` also runs a loop over batches or model calls that
    does not hold `op`, in its body, in a function of this file it calls, or in one it
    hands a DataLoader (`for epoch: train(model, loader)`): then `loop` is an outer loop
    (once per epoch), and `op` runs a few times, not per batch. A loop or call under a
    periodic or one-iteration guard (`if i % 400 == 0: sample_images()`) does not count.
    With `steps`, only a loop of steps counts (`steps_loop`), not one over the examples of
    a batch (`for s, a, r in minibatch: target.predict(s)` is part of one step)."""
    def rare(inner: ir.Operation) -> bool:  # asked last: frequency() is not cheap
        return frequency(inner, loop).kind in RARE

    for inner in walk(loop):
        if inner.name in LOOPS and same_op(enclosing_loop(inner), loop) and \
                not holds(inner, op) and does_model_work(inner, strict=True) and \
                (not steps or steps_loop(inner)) and \
                not few_iterations(inner, settings=True) and not rare(inner):
            return True  # (a handful of updates per step, `range(policy_frequency)`, is not)
        if inner.name == "host.call" and same_op(enclosing_loop(inner), loop) and \
                not string_attr(inner, "qualname").startswith(("builtins.", "torch.")):
            if any(value_kind(v) == "dataloader" for v in list(inner.operands)[1:]) and \
                    not rare(inner):
                return True  # `train(model, train_loader)`: it loops over the batches
            func = called_function(inner)
            if func is not None and not holds(func, op) and not model_forward(func) and \
                    any(o.name in LOOPS and does_model_work(o, strict=True) and
                        (not steps or steps_loop(o)) for o in walk(func)) and not rare(inner):
                return True
    return False


def steps_loop(loop: ir.Operation) -> bool:
    """Whether `loop` is a loop of steps: a `while` loop (an episode's), a `for` over
    `range(...)` or over a data loader; not a `for` over the elements of a value (the
    examples of a minibatch)."""
    if loop.name == "host.while":
        return True
    iterated = producer(loop.operands[0])
    return value_kind(loop.operands[0]) == "dataloader" or iterated is not None and \
        iterated.name == "host.call" and string_attr(iterated, "qualname") == "builtins.range"


def model_forward(func: ir.Operation) -> bool:
    """Whether `func` is what calling a model of the program runs (`forward` of an
    `nn.Module` subclass, `call` of a Keras one): its loops (a decoder's time steps, an
    attention over encoder outputs) are part of the step that calls the model, not a loop
    of steps inside it."""
    cls = func.parent
    return cls is not None and cls.name == "host.class" and module_class(cls) and \
        string_attr(func, "sym_name") in ("forward", "call", "__call__")


def same_op(a: ir.Operation | None, b: ir.Operation) -> bool:
    """`a == b` for ops that may be None (the bindings' `==` raises on None)."""
    return a is not None and a == b


def holds(outer: ir.Operation, op: ir.Operation) -> bool:
    """Whether `op` is nested somewhere inside `outer`."""
    parent = op.parent
    while parent is not None:
        if parent == outer:
            return True
        parent = parent.parent
    return False


@per_run()
def _stores(scope: ir.Operation) -> dict[str, list[ir.Operation]]:
    """The stores of `scope`'s own locals, by name (one walk per scope while walks are
    cached, instead of one per question)."""
    found: dict[str, list[ir.Operation]] = {}
    for o in walk(scope):
        if o.name == "host.store" and same_op(enclosing_scope(o), scope):
            found.setdefault(string_attr(o, "name"), []).append(o)
    return found


def definition(value: ir.Value, scope: ir.Operation) -> ir.Operation | None:
    """The op computing `value`, seen through a local stored once in `scope`
    (`ds = TensorDataset(x, y); DataLoader(ds)` gives the TensorDataset call), also by an
    unpacking of a display (`actor, critic = Actor(), Critic()`), or through imports that
    all bind the same definition of the program (two star imports re-exporting it)."""
    op = producer(value)
    if op is None or op.name != "host.load":
        return op
    stores = _stores(scope).get(string_attr(op, "name"), [])
    if len(stores) > 1:  # `from helpers import *`, then `from generate import *` re-exporting it
        found = _bound_in(scope, string_attr(op, "name"))
        return found if found is not None and found.name != "host.import" else None
    made = producer(_unpacked(stores[0].operands[0])) if stores else None
    return imported(made) if made is not None and made.name == "host.import" else made


def definitions(value: ir.Value, scope: ir.Operation) -> list[ir.Operation]:
    """The op computing `value` at every store of its local in `scope`, when each store is
    a plain binding (`if tiny: yolo = YoloV3Tiny() else: yolo = YoloV3()` gives both
    calls); a question that holds for all of them holds for the value. [] when a store
    binds something this cannot see (a loop target, an unpacking of a call)."""
    op = producer(value)
    if op is None or op.name != "host.load":
        return [op] if op is not None else []
    found = []
    for store in _stores(scope).get(string_attr(op, "name"), []):
        made = producer(_unpacked(store.operands[0]))
        if made is None or made.name == "host.unpack":
            return []
        found.append(imported(made) if made.name == "host.import" else made)
    return found


def reaching_definition(value: ir.Value, scope: ir.Operation) -> ir.Operation | None:
    """The op computing `value`, a local's load: the value of the last store of the name
    before the load in straight-line code, looking out through the `if`s around it
    (`x = torch.randn(n); x = x.abs(); return x` gives `x.abs()`; `z = torch.zeros(n)`
    then `if cuda: z = z.cuda()` gives `torch.zeros(n)` inside the `if`), when no op in
    between holds another store of it; else `definition`'s answer (a local stored once)."""
    load = producer(value)
    if load is None or load.name != "host.load":
        return load
    found = reaching_store(load)
    if found is None:
        return definition(value, scope)
    made = producer(_unpacked(found.operands[0]))
    return imported(made) if made is not None and made.name == "host.import" else made


def binding_store(load: ir.Operation) -> ir.Operation | None:
    """The `host.store` whose value a local's load reads: the one that reaches it in
    straight-line code, else the only store of the name in its scope; None otherwise."""
    stores = _stores(enclosing_scope(load)).get(string_attr(load, "name"), [])
    return reaching_store(load) or (stores[0] if len(stores) == 1 else None)


@per_run()
def reaching_store(load: ir.Operation) -> ir.Operation | None:
    """The `host.store` of a load's name that reaches it in straight-line code (looking
    out through the `if`s and `with`s around it, and through loops and comprehensions that
    never bind the name: a notebook's loop calling the `play_one_step` its earlier cell
    defined, `[gram(f) for f in resnet(x)]` after `resnet` was bound again), or None
    when none does or a branch or loop in between may rebind the name. An earlier `if` on
    the same unchanging flag as an `if` around the load took the same branch
    (`if web: ds = WebDataset() else: ds = Folder()` then `if web: ... else:
    DataLoader(ds)` reads the folder dataset)."""
    name = string_attr(load, "name")
    found, at = None, load
    taken = _branches_taken(load)
    while found is None and at is not None:
        unknown = False  # rebound in a branch or loop since the last plain store
        for op in at.block.operations:
            op = op.operation
            if same_op(op, at):
                break
            if op.name == "host.store" and string_attr(op, "name") == name:
                found, unknown = op, False
            elif op.regions and op.name not in SCOPES and _stores_name(op, name):
                # (defining a function or class binds none of the names its body does)
                branch = _branch_taken(op, taken)
                if branch is None:
                    found, unknown = None, True
                    continue
                for inner in branch.operations:
                    inner = inner.operation
                    if inner.name == "host.store" and string_attr(inner, "name") == name:
                        found, unknown = inner, False
                    elif inner.regions and _stores_name(inner, name):
                        found, unknown = None, True
        if unknown:
            return None  # which store reaches is unknown
        if found is None and at is not None:
            parent = at.parent
            at = parent if parent is not None and (
                parent.name in ("host.if", "host.with") or
                parent.name in (*LOOPS, "host.comprehension") and
                not _stores_name(parent, name)) else None
    return found


def _flag(if_op: ir.Operation) -> tuple[str, bool] | None:
    """(the name, negated) when an `if` tests a name (`if web:`, `if not web:`) that its
    scope binds once, in its body and not in a branch or loop, and no function rebinds
    through `global`: every `if` on it after that binding takes the same branch."""
    negated, op = False, producer(if_op.operands[0]) if if_op.operands else None
    while op is not None and (op.name == "host.truth" or op.name == "host.unop" and
                              string_attr(op, "op") == "not"):
        negated ^= op.name == "host.unop"
        op = producer(op.operands[0])
    if op is None or op.name != "host.load":
        return None
    name, scope = string_attr(op, "name"), enclosing_scope(op)
    stores = _stores(scope).get(name, [])
    if len(stores) != 1 or not same_op(stores[0].parent, scope) or \
            name in _rebound_globals(host_module(op) or scope):
        return None
    return name, negated


def _branches_taken(op: ir.Operation) -> dict[str, bool]:
    """For each `if` on a flag (`_flag`) around `op` in its scope: the flag -> whether it
    is true where `op` runs."""
    taken, inner, parent = {}, op, op.parent
    while parent is not None and parent.name not in SCOPES:
        if parent.name == "host.if" and (flag := _flag(parent)) is not None:
            then = same_op(inner.parent, parent) and \
                inner.block == parent.regions[0].blocks[0]
            taken[flag[0]] = then != flag[1]
        inner, parent = parent, parent.parent
    return taken


def _branch_taken(op: ir.Operation, taken: dict) -> ir.Block | None:
    """The block an `if` on a flag runs, when the `if`s around a load (in its scope) fix
    that flag."""
    flag = _flag(op) if op.name == "host.if" else None
    value = taken.get(flag[0]) if flag is not None else None
    if value is None:
        return None
    return op.regions[0 if value != flag[1] else 1].blocks[0]


def _stores_name(op: ir.Operation, name: str) -> bool:
    return name in _stored_names(op)


@per_run()
def _stored_names(op: ir.Operation) -> frozenset[str]:
    """The names a `host.store` in `op` (a branch, a loop) binds."""
    return frozenset(string_attr(o, "name") for o in walk(op) if o.name == "host.store")


def imported(op: ir.Operation, memo: dict | None = None) -> ir.Operation:
    """What `from mod import name` binds when `mod` is a file of the analysed program (the
    op that makes `name` there: its class, function or value, once bound); else the import
    itself. This is how facts cross files: `Agent()` in main.py constructs agent.py's
    class."""
    name, module = string_attr(op, "name"), string_attr(op, "module")
    target = _program_modules(op).get(module) if name else None
    made = _bound_in(target, name, memo) if target is not None else None
    return op if made is None else made


_BOUND_CACHE: dict = {}  # (host.module, name) -> the op it binds the name to, while cached
_PER_RUN.append(_BOUND_CACHE)


def _bound_in(module: ir.Operation, name: str, memo: dict | None = None
              ) -> ir.Operation | None:
    """The op that makes what `module` binds `name` to, through its imports from other
    files of the program; None unless every store of the name there leads to the same op
    (a package's `from .a import *` and `from .b import *` both re-export `torch`).
    Re-exports form a graph with many paths to one definition (`from ..utils import *` in
    every module of a package): each (module, name) is answered once, and a cycle of
    imports binds nothing."""
    if memo is None:
        memo = _BOUND_CACHE if _WALK_CACHE is not None else {}
    key = (module, name)
    if key in memo:
        return memo[key]
    memo[key] = None  # while it is being answered: an import cycle
    found = None
    for store in _stores(module).get(name, []):
        made = producer(store.operands[0])
        if made is not None and made.name == "host.import":
            made = imported(made, memo)
        if made is None or (found is not None and not same_op(made, found)):
            found = None
            break
        found = made
    memo[key] = found
    return found


@per_run(key=program_of)
def _program_modules(op: ir.Operation) -> dict[str, ir.Operation]:
    """The files of the program holding `op`, by their module name (`pkg.mod`), and by
    their full name when the analysed folder is a package (`playground.policies.memory`
    for `policies.memory`: the files import each other so)."""
    found = {}
    for m in program_of(op).regions[0].blocks[0].operations:
        if m.operation.name == "host.module":
            name = string_attr(m.operation, "sym_name")
            package = string_attr(m.operation, "harp.package")
            found[name] = m.operation
            if package:
                found.setdefault(f"{package}.{name}", m.operation)
    return found


@per_run(key=program_of)
def _imports(op: ir.Operation) -> dict[ir.Operation, list[ir.Operation]]:
    """Each file of the program -> the files of the program it imports."""
    modules = _program_modules(op)
    found: dict[ir.Operation, list[ir.Operation]] = {m: [] for m in modules.values()}
    for m, targets in found.items():
        for o in walk(m):
            if o.name != "host.import":
                continue
            module, name = string_attr(o, "module"), string_attr(o, "name")
            for target in (modules.get(module), modules.get(f"{module}.{name}") if name
                           else None):
                if target is not None and target != m and target not in targets:
                    targets.append(target)
    return found


@per_run(key=program_of)
def _file_groups(op: ir.Operation) -> dict:
    """Each file of the program -> a representative of its workflow: the files joined by
    importing one another, in either direction (`train.py` and `eval.py` both import
    `model.py`). Scripts side by side that share no module of the program (a folder of
    examples, a folder of notebooks) are separate programs."""
    imports = _imports(op)
    parent = {m: m for m in imports}

    def root(m):
        while parent[m] != m:
            parent[m] = parent[parent[m]]
            m = parent[m]
        return m

    for m, targets in imports.items():
        for target in targets:
            parent[root(m)] = root(target)
    return {m: root(m) for m in parent}


def workflow_files(op: ir.Operation) -> list[ir.Operation]:
    """The files of the program that run with `op`'s file: those it imports or that import
    it, transitively (see `_file_groups`). An evaluation script beside the training script,
    both importing the model, runs with it: blind readers judged its pass over the test set
    one run after training, not a main loop of its own."""
    groups, file = _file_groups(op), host_module(op)
    if file not in groups:
        return [file] if file is not None else []
    return [m for m, r in groups.items() if r == groups[file]]


#: what makes or runs a TF1 session: a program that calls one builds graphs, not eager ops
_SESSION_CALLS = frozenset({SESSION_RUN, "tensorflow.compat.v1.Session",
                            "tensorflow.compat.v1.InteractiveSession",
                            "tensorflow.compat.v1.train.MonitoredTrainingSession"})


def runs_tf1_sessions(op: ir.Operation) -> bool:
    """Whether the files that run with `op`'s (`workflow_files`) make or run a TF1
    `Session`: their TensorFlow calls build a graph that sessions run (glow's optimizer
    module, imported by the model that the training script runs in a session)."""
    return _sessions_in(tuple(workflow_files(op)))


@per_run()
def _sessions_in(files: tuple) -> bool:
    return any(o.name == "host.call" and string_attr(o, "qualname") in _SESSION_CALLS
               for f in files for o in walk(f))


def enclosing_scope(op: ir.Operation) -> ir.Operation:
    """The function, class or module whose locals `op` reads and writes."""
    parent = op.parent
    while parent is not None and parent.name not in SCOPES:
        parent = parent.parent
    return parent if parent is not None else op


#: methods whose call changes what a later call sees: a training step, a filled container
_STATE_CHANGING = frozenset({"backward", "step", "zero_grad", "register_buffer"})


def stateless_function(call: ir.Operation, depth: int = 0) -> ir.Operation | None:
    """The one program function a call runs (`self.score(h, out[i])`, `model(x[t])`'s
    `forward`) when its body runs a model or tensor ops and keeps nothing between calls:
    it writes no attribute or global, fills or changes no container it did not make, runs
    no training step, prints nothing, and calls only such functions of the program. Calls
    of it on separate examples are then independent, as a model's are; None otherwise."""
    funcs = called_functions(call)
    if len(funcs) != 1 or depth > 2:
        return None
    func = funcs[0]
    made_here = {n for n, stores in _stores(func).items()
                 if all(not isinstance(s.operands[0].owner, ir.Block) for s in stores)}
    mutators = catalogue.load().container_mutators

    def local(value: ir.Value) -> bool:
        load = producer(value)
        return load is not None and load.name == "host.load" and \
            not string_attr(load, "scope") and string_attr(load, "name") in made_here

    work = 0
    for op in walk(func):
        if op.name == "host.setattr" or (op.name == "host.store" and
                                         string_attr(op, "scope")):
            return None
        if op.name == "host.setitem" and not local(op.operands[0]):
            return None
        if op.name != "host.call":
            work += op.name == "host.binop" and value_kind(op.result) == "tensor"
            continue
        method = string_attr(op, "method")
        if method in _STATE_CHANGING or string_attr(op, "effect") == "io" or \
                (method in mutators and not local(receiver(op))):
            return None
        if called_function(op) is not None and stateless_function(op, depth + 1) is None:
            return None
        callee = producer(op.operands[0])
        work += 2 if callee is not None and string_attr(callee, "harp.kind") == "module" \
            else value_kind(op.result) == "tensor"
    return func if work >= 2 else None
