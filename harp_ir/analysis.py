"""Shared analyses over host-dialect IR, written once and used by every pass.

Loop nests, source spans of ops and the recording of findings live here, so that a pass
module only says what it looks for.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from torch_mlir import ir

LOOPS = ("host.for", "host.while")
#: ops that start a new Python scope: a loop outside one does not run the code inside it
SCOPES = ("host.func", "host.class", "host.module")

_LOC = re.compile(r'"(?P<file>(?:[^"\\]|\\.)*)":(?P<line>\d+):(?P<col>\d+)'
                  r'(?: to (?P<eline>\d+)?:(?P<ecol>\d+))?')


@dataclass(frozen=True)
class Span:
    file: str
    line: int
    col: int
    end_line: int
    end_col: int
    cell: int | None = None  # a notebook's cell (1-based); then the lines are the cell's

    def __str__(self) -> str:
        where = f"cell {self.cell}:" if self.cell is not None else ""
        return f"{self.file}:{where}{self.line}:{self.col}"


def span(location: ir.Location) -> Span | None:
    """The source span of a location (file:line:col, optionally a range), if it has one."""
    m = _LOC.search(str(location))
    if m is None:
        return None
    line, col = int(m["line"]), int(m["col"])
    end_line = int(m["eline"]) if m["eline"] else line
    end_col = int(m["ecol"]) if m["ecol"] else col
    return Span(m["file"].replace('\\"', '"'), line, col, end_line, end_col)


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


@contextmanager
def cached_walks():
    """Share walks between passes that add attributes but never add or remove ops."""
    global _WALK_CACHE
    _WALK_CACHE = {}
    try:
        yield
    finally:
        _WALK_CACHE = None


def enclosing_loop(op: ir.Operation) -> ir.Operation | None:
    """The innermost host loop that runs `op` on each iteration, within op's own scope."""
    parent = op.parent
    while parent is not None and parent.name not in SCOPES:
        if parent.name in LOOPS:
            return parent
        parent = parent.parent
    return None


def string_attr(op: ir.Operation, name: str, default: str = "") -> str:
    attrs = op.attributes
    return ir.StringAttr(attrs[name]).value if name in attrs else default


def describe_loop(loop: ir.Operation) -> str:
    """A loop as a message names it: "the `for epoch` loop (line 8)"."""
    where = span(loop.location)
    line = f" (line {where.line})" if where else ""
    if loop.name == "host.for":
        return f"the `for {string_attr(loop, 'target')}` loop{line}"
    return f"the `while` loop{line}"


#: The one vocabulary of assumptions hints rest on (`--assume`/`--deny` take these kinds).
ASSUMPTIONS: dict[str, str] = {
    "tensor": "a value is a tensor",
    "library": "a name resolves to the library",
    "not-patched": "the library is not monkey-patched or shadowed at run time",
    "pure": "a function has no side effects",
    "no-alias": "an object is not changed through another name in the loop",
    "loop-runs": "the loop runs more than once",
    "hot-loop": "the loop runs many times (it is not an outer, once-per-epoch loop)",
    "accelerator": "the benefit needs an accelerator",
    "same-graph": "TF ops are built into the same default graph every iteration",
    "traceable": "a step has no Python side effects that must run eagerly",
    "independent-runs": "a Session.run does not need the updates of an earlier one",
    "independent-iterations": "no loop iteration depends on an earlier one",
    "independent-examples": "a model treats the examples of a batch independently",
    "no-partial-use": "a partial result is not needed inside the loop",
    "no-backward": "no backward pass runs through the computation",
    "grad-unread": "zeroed gradients are not read before the next backward",
    "framework-equivalent": "a host computation has a framework-op equivalent",
    "tensor-argument": "a tf.function computes the same with a tensor for a Python number",
    "picklable-dataset": "a dataset can be sent to worker processes",
}
RISKS = ("low", "medium", "high")
STATUSES = ("proved", "speculated", "confirmed", "denied")


@dataclass(frozen=True)
class Assumption:
    """One thing a hint relies on, from the ASSUMPTIONS vocabulary."""

    kind: str
    subject: str
    risk: str  # low, medium, high
    status: str  # proved, speculated, confirmed, denied
    reason: str = ""

    def __post_init__(self):
        if self.kind not in ASSUMPTIONS or self.risk not in RISKS or \
                self.status not in STATUSES:
            raise ValueError(f"bad assumption {self}: see harp_ir.analysis.ASSUMPTIONS")

    def describe(self) -> str:
        """"tensor `loss` (speculated, medium risk: calling ... returns a tensor)"."""
        subject = self.subject if "`" in self.subject else f"`{self.subject}`"
        subject = f" {subject}" if self.subject else ""
        why = f": {self.reason}" if self.reason else ""
        return f"{self.kind}{subject} ({self.status}, {self.risk} risk{why})"

    def to_attr(self) -> ir.Attribute:
        return ir.DictAttr.get({k: ir.StringAttr.get(v) for k, v in vars(self).items()})

    @staticmethod
    def from_attr(attr: ir.Attribute) -> Assumption:
        d = ir.DictAttr(attr)
        return Assumption(*(ir.StringAttr(d[k]).value for k in
                            ("kind", "subject", "risk", "status", "reason")))


def record_hint(op: ir.Operation, hint_id: str, message: str,
                assumptions: list[Assumption]) -> None:
    """Attach a finding to `op` as `harp.hints`, so harp-opt output shows it."""
    entry = ir.DictAttr.get({
        "id": ir.StringAttr.get(hint_id),
        "message": ir.StringAttr.get(message),
        "assumptions": ir.ArrayAttr.get([a.to_attr() for a in assumptions]),
    })
    existing = list(ir.ArrayAttr(op.attributes["harp.hints"])) \
        if "harp.hints" in op.attributes else []
    op.attributes["harp.hints"] = ir.ArrayAttr.get(existing + [entry])


#: host ops that compute a value from their operands alone
_VALUE_OPS = ("host.constant", "host.getattr", "host.getitem", "host.binop", "host.unop",
              "host.compare", "host.tuple", "host.list", "host.slice", "host.truth")


def loop_mutates(loop: ir.Operation) -> set[str]:
    """The names a loop's body writes (`harp.mutates`, recorded by the frontend)."""
    if "harp.mutates" not in loop.attributes:
        return set()
    return {ir.StringAttr(a).value for a in ir.ArrayAttr(loop.attributes["harp.mutates"])}


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
        seen.add(string_attr(op, "name"))
    elif op.name in ("host.binop", "host.unop", "host.compare"):
        return  # arithmetic makes a new object: it holds no reference to its operands
    elif op.name == "host.call" and string_attr(op, "qualname") in _FRESH_FACTORIES:
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
_FRESH_FACTORIES = frozenset(f"torch.{n}" for n in (
    "zeros", "ones", "empty", "full", "zeros_like", "ones_like", "empty_like", "full_like",
    "rand", "randn", "randint", "arange", "linspace", "eye", "tensor"))


def fresh_receiver(call: ir.Operation) -> bool:
    """Whether a method call's receiver is the result of a factory in this expression."""
    callee = producer(call.operands[0])
    if callee is None or callee.name != "host.getattr":
        return False
    recv = producer(callee.operands[0])
    return recv is not None and recv.name == "host.call" and \
        string_attr(recv, "qualname") in _FRESH_FACTORIES


def loop_clobbers(loop: ir.Operation) -> set[str]:
    """The names a loop may change: those it writes (`harp.mutates`), and every object
    handed to a call that may mutate it (effect mutate or unknown, e.g.
    `opt.apply_gradients(zip(grads, [w]))` may change `w`)."""
    names = set(loop_mutates(loop))
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


def invariant_in(value: ir.Value, loop: ir.Operation, pure=("pure",),
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
        return string_attr(op, "name") not in clobbered
    if op.name == "host.call" and string_attr(op, "effect") not in pure:
        return False
    if op.name not in _VALUE_OPS and op.name != "host.call":
        return False
    return all(invariant_in(v, loop, pure, clobbered) for v in op.operands)


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


def producer(value: ir.Value) -> ir.Operation | None:
    """The op that defines `value`, or None for a block argument."""
    owner = value.owner
    return None if isinstance(owner, ir.Block) else owner.operation


def value_kind(value: ir.Value) -> str:
    """The `harp.kind` the frontend recorded for `value` ("" when unknown)."""
    op = producer(value)
    return string_attr(op, "harp.kind") if op is not None else ""


def call_arguments(op: ir.Operation) -> list[tuple[str, ir.Value]]:
    """(keyword, value) for each argument of a host.call; "" for positional ones."""
    names = [ir.StringAttr(k).value for k in ir.ArrayAttr(op.attributes["kwnames"])]
    return list(zip(names, list(op.operands)[1:], strict=True))


def in_compiled_function(op: ir.Operation, compilers=("tensorflow.function",
                                                      "torch.compile", "torch.jit.script")
                         ) -> bool:
    """Whether `op` is inside a function decorated with one of `compilers`."""
    parent = op.parent
    while parent is not None:
        if parent.name == "host.func" and "harp.decorators" in parent.attributes and any(
                ir.StringAttr(d).value in compilers
                for d in ir.ArrayAttr(parent.attributes["harp.decorators"])):
            return True
        parent = parent.parent
    return False


def loop_runs(loop: ir.Operation) -> Assumption:
    """The assumption every in-loop hint rests on."""
    return Assumption("loop-runs", describe_loop(loop), "low", "speculated",
                      "a loop is assumed to run more than once")


#: `Session.run` of TF1: what runs a built graph
SESSION_RUN = "tensorflow.compat.v1.Session.run"
NOT_CONSTANT = object()


def constant_value(value: ir.Value):
    """The Python value of a `host.constant` (None for None), else NOT_CONSTANT."""
    op = producer(value)
    if op is None or op.name != "host.constant":
        return NOT_CONSTANT
    return getattr(op.attributes["value"], "value", None)
