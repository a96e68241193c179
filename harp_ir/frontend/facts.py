"""Speculative facts about host values: what kind of object a value is, and why we think so.

HARP's speculative analysis: where the code proves a fact (a value comes from
`torch.randn`), the fact is *proved*; where Python is too dynamic to prove it (`x.item()`
on a value we know nothing about), harp *speculates* and writes the reason down. Facts are
attached to the op that produces the value (`harp.kind`, `harp.framework`,
`harp.kind_status`, `harp.kind_reason`), so every later pass sees the same evidence.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from torch_mlir import ir


@dataclass(frozen=True)
class Fact:
    kind: str  # one of dialects.host.KINDS
    framework: str = ""  # "torch", "tf" or ""
    status: str = "proved"  # "proved" or "speculated"
    reason: str = ""
    qualname: str = ""  # for library objects (modules, functions): what they resolve to
    parts: tuple[Fact, ...] = ()  # for tuples: the facts of the elements
    element: Fact | None = None  # for iterables: the fact of each element
    item: Fact | None = None  # for dict and list displays: the fact of what `d[k]` gives
    returns: Fact | None = None  # for functions: the fact of what they return
    effects: tuple[str, ...] = ()  # for user functions: their effect summary
    compiled: str = ""  # for functions: the compiler wrapping them (tensorflow.function)

    def speculated(self, reason: str) -> Fact:
        return replace(self, status="speculated", reason=reason)


UNKNOWN = Fact("unknown", status="speculated")


def framework_of(qualname: str) -> str:
    root = qualname.split(".", 1)[0]
    return {"torch": "torch", "torchvision": "torch", "tensorflow": "tf",
            "keras": "tf"}.get(root, "")


def attach(op: ir.Operation, fact: Fact | None) -> None:
    """Record `fact` on the op producing the value. Unknown facts are not written."""
    if fact is None or fact.kind in ("unknown", "library", "function"):
        return
    attrs = op.attributes
    attrs["harp.kind"] = ir.StringAttr.get(fact.kind)
    if fact.framework:
        attrs["harp.framework"] = ir.StringAttr.get(fact.framework)
    attrs["harp.kind_status"] = ir.StringAttr.get(fact.status)
    if fact.reason:
        attrs["harp.kind_reason"] = ir.StringAttr.get(fact.reason)


def read(op: ir.Operation) -> Fact | None:
    """The fact recorded on `op`, if any."""
    attrs = op.attributes
    if "harp.kind" not in attrs:
        return None

    def s(name):
        return ir.StringAttr(attrs[name]).value if name in attrs else ""

    return Fact(s("harp.kind"), s("harp.framework"), s("harp.kind_status") or "proved",
                s("harp.kind_reason"))
