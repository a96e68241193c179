"""Name resolution and the facts a name carries while lowering: scopes of bindings, the
values the lowering passes around (`V`), how facts merge and propagate through operators,
tuples and iteration, and the evidence that a module is TF1 code."""

from __future__ import annotations

import builtins
from dataclasses import dataclass, field, replace

import libcst as cst
from torch_mlir import ir

from harp_ir import catalogue as api_catalogue
from harp_ir.frontend.facts import UNKNOWN, Fact

MODULE_BASES = {
    "torch.nn.Module": "torch", "tensorflow.keras.Model": "tf",
    "tensorflow.keras.layers.Layer": "tf", "keras.Model": "tf", "keras.layers.Layer": "tf",
}


BUILTIN_NAMES = frozenset(dir(builtins))


@dataclass
class V:
    """A lowered expression: its SSA value and what the frontend knows about it."""

    value: ir.Value
    fact: Fact = UNKNOWN
    name: str = ""  # the source text of a simple name/attribute chain, for messages


@dataclass
class Scope:
    kind: str  # "module", "function", "class"
    facts: dict[str, Fact] = field(default_factory=dict)
    declared: dict[str, str] = field(default_factory=dict)  # name -> "global"/"nonlocal"
    returns: list[Fact] = field(default_factory=list)  # facts of the values returned
    #: a class: in how many places its methods assign each attribute `self.x`, the facts
    #: of those lowered so far, and the fact every one of them shares once all are
    #: (`self.linear = nn.Linear(...)` in `__init__`)
    assigned: dict[str, int] = field(default_factory=dict)  # see attribute_assignments
    assigned_so_far: dict[str, list[Fact]] = field(default_factory=dict)
    attributes: dict[str, Fact] = field(default_factory=dict)
    #: a method: the name of its first parameter (`self`) and its class's scope
    self_name: str = ""
    owner: Scope | None = None


#: the weight of a binding that is no one value (`+=`, `del`, a loop target)
_NOT_ONE_VALUE = 1 << 20


def attributes_assigned_once(cls: cst.ClassDef) -> frozenset[str]:
    """The attributes `self.x` that the methods of `cls` assign in exactly one place."""
    return frozenset(name for name, n in attribute_assignments(cls).items() if n == 1)


def attribute_assignments(cls: cst.ClassDef) -> dict[str, int]:
    """For each attribute `self.x` that the methods of `cls` bind only by assignment (or a
    `with` target), in how many places (`+=`, `del self.x`, a loop target and
    `setattr(self, ...)` bind it to no one value: such attributes are left out). A fact
    every one of those values shares holds wherever the class's methods read `self.x`
    after them; `self.x = None` in `__init__` declares an attribute a later method makes
    and is not counted. Only statements are visited (an attribute cannot be bound inside an
    expression), which keeps this cheap next to the lowering."""
    counts: dict[str, int] = {}
    placeholders = False  # in `__init__`, where `self.x = None` declares what comes later

    def count(target, self_name: str, weight: int = 1) -> None:
        if isinstance(target, (cst.Tuple, cst.List)):
            for element in target.elements:
                count(element.value, self_name, weight)
        elif isinstance(target, cst.StarredElement):
            count(target.value, self_name, weight)
        elif isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name) and \
                target.value.value == self_name:
            counts[target.attr.value] = counts.get(target.attr.value, 0) + weight

    def small(statements, self_name: str) -> None:
        for stmt in statements:
            if isinstance(stmt, cst.Assign) and placeholders and \
                    isinstance(stmt.value, cst.Name) and stmt.value.value == "None":
                continue  # `self.opt = None` in `__init__`, made later: nothing is called on it
            if isinstance(stmt, cst.Assign):
                for t in stmt.targets:
                    count(t.target, self_name)
            elif isinstance(stmt, cst.AnnAssign) and stmt.value is not None:
                count(stmt.target, self_name)
            elif isinstance(stmt, (cst.AugAssign, cst.Del)):
                count(stmt.target, self_name, _NOT_ONE_VALUE)
            elif isinstance(stmt, cst.Expr) and isinstance(stmt.value, cst.Call) and \
                    dotted_name(stmt.value.func) == "setattr":
                counts["*"] = _NOT_ONE_VALUE  # a computed name: any attribute may be rebound

    def block(suite, self_name: str) -> None:
        if isinstance(suite, cst.SimpleStatementSuite):  # `if c: self.a = 1`
            small(suite.body, self_name)
        elif suite is not None:
            visit(suite.body, self_name)

    def visit(statements, self_name: str) -> None:
        for stmt in statements:
            if isinstance(stmt, cst.SimpleStatementLine):
                small(stmt.body, self_name)
                continue
            if isinstance(stmt, cst.For):
                count(stmt.target, self_name, _NOT_ONE_VALUE)
            elif isinstance(stmt, cst.With):
                for item in stmt.items:
                    if item.asname is not None:
                        count(item.asname.name, self_name)
            elif isinstance(stmt, cst.Match):
                counts["*"] = _NOT_ONE_VALUE  # patterns can bind attributes: assume nothing
            block(getattr(stmt, "body", None), self_name)
            orelse = getattr(stmt, "orelse", None)
            if isinstance(orelse, cst.If):
                visit([orelse], self_name)  # elif
            elif orelse is not None:
                block(orelse.body, self_name)
            for handler in getattr(stmt, "handlers", ()):
                block(handler.body, self_name)
            final = getattr(stmt, "finalbody", None)
            if final is not None:
                block(final.body, self_name)

    for stmt in cls.body.body:
        if isinstance(stmt, cst.FunctionDef) and stmt.params.params and not any(
                dotted_name(d.decorator) in ("staticmethod", "classmethod")
                for d in stmt.decorators):
            placeholders = stmt.name.value == "__init__"
            visit(stmt.body.body, stmt.params.params[0].name.value)
    if counts.get("*"):
        return {}
    return {name: n for name, n in counts.items() if n < _NOT_ONE_VALUE}


def dotted_name(node) -> str:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        return f"{dotted_name(node.value)}.{node.attr.value}"
    return ""


#: decorators that compile a Python function into a graph function
COMPILERS = frozenset({"tensorflow.function", "torch.compile", "torch.jit.script"})


#: calls that make names or code at run time: analysis facts near them are speculative
DYNAMIC_CALLS = {
    "builtins.eval": "eval", "builtins.exec": "exec", "builtins.compile": "compile",
    "builtins.__import__": "__import__", "importlib.import_module": "importlib",
    "importlib.reload": "importlib",
}


#: decorators that keep what the function returns and does
TRANSPARENT_DECORATORS = frozenset({
    "tensorflow.function", "torch.compile", "torch.no_grad", "torch.inference_mode",
    "torch.jit.script", "functools.wraps", "functools.cache", "functools.lru_cache",
})


def qualname_of(v: V) -> str:
    """The library name a value resolves to: itself (`tf.function`) or the call that made
    it (`torch.no_grad()`)."""
    if v.fact.qualname:
        return v.fact.qualname
    owner = v.value.owner
    attrs = owner.attributes if isinstance(owner, (ir.Operation, ir.OpView)) else {}
    return ir.StringAttr(attrs["qualname"]).value if "qualname" in attrs else ""


def summary_effect(effects: tuple[str, ...]) -> str:
    """The effect of a call to a user function with this summary."""
    for summary, effect in (("unknown", "unknown"), ("mutates-globals", "unknown"),
                            ("mutates-argument", "mutate"), ("io", "io"),
                            ("random", "random"), ("pure", "pure")):
        if summary in effects:
            return effect
    return "unknown"


def merge_facts(facts: list[Fact]) -> Fact | None:
    """What a function returns, when every `return` agrees on the kind."""
    kinds = {(f.kind, f.framework) for f in facts}
    if len(kinds) != 1 or facts[0].kind == "unknown":
        return None
    status = "speculated" if any(f.status == "speculated" for f in facts) else "proved"
    return Fact(facts[0].kind, facts[0].framework, status, facts[0].reason)


def item_fact(values: list[Fact]) -> Fact:
    """A dict or list display whose values all agree on a kind (a registry of model
    classes, `{"unet": UNet, "fcn": FCN}`): subscripting it gives a value of that kind."""
    merged = merge_facts(values) if values else None
    if merged is None or merged.kind not in ("class", "module", "function"):
        return UNKNOWN
    return replace(UNKNOWN, item=merged)


def arith_fact(lhs: V, rhs: V) -> Fact:
    for side in (lhs, rhs):
        if side.fact.kind == "tensor":
            return side.fact
    return UNKNOWN


def tuple_fact(values: list[V]) -> Fact:
    return Fact("unknown", parts=tuple(v.fact for v in values)) if values else UNKNOWN


def element_fact(iterable: Fact) -> Fact:
    """What the loop variable of `for x in iterable` is."""
    if iterable.kind == "dataloader":
        return Fact("tensor", iterable.framework, "speculated",
                    "the batches of a DataLoader are assumed to hold tensors")
    if iterable.kind == "tensor":
        return iterable
    if iterable.element is not None:
        return iterable.element
    return UNKNOWN


def part_facts(value: Fact, n: int) -> list[Fact]:
    if value.parts and len(value.parts) == n:
        return list(value.parts)
    if value.kind == "tensor":
        return [value] * n
    return [UNKNOWN] * n


def tf1_evidence(tree: cst.Module, source: str | None) -> list[str]:
    """The TF1-only names (`tf.Session`, `tf.train.AdamOptimizer`) a module reaches through
    a plain `import tensorflow [as tf]`, up to three: the speculation that it is TF1 code,
    whose `tf.*` resolves through `tensorflow.compat.v1`."""
    if source is not None and "tensorflow" not in source:
        return []
    top, train = api_catalogue.tf1_only()

    class Finder(cst.CSTVisitor):
        def __init__(self):
            self.aliases: set[str] = set()
            self.found: list[str] = []

        def visit_Import(self, node):
            for alias in node.names:
                if dotted_name(alias.name) == "tensorflow":
                    self.aliases.add(alias.asname.name.value if alias.asname is not None
                                     else "tensorflow")

        def visit_Attribute(self, node):
            value, attr = node.value, node.attr.value
            if isinstance(value, cst.Name) and value.value in self.aliases and attr in top:
                self.found.append(f"{value.value}.{attr}")
            elif isinstance(value, cst.Attribute) and isinstance(value.value, cst.Name) and \
                    value.value.value in self.aliases and value.attr.value == "train" and \
                    attr in train:
                self.found.append(f"{value.value.value}.train.{attr}")

    finder = Finder()
    tree.visit(finder)
    return sorted(set(finder.found))[:3]
