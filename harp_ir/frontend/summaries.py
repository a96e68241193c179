"""Summaries the frontend writes on the IR once a function or loop is lowered.

- `harp.effects` on `host.func`: what calling the function may do (pure, random, io,
  mutates-argument, mutates-globals, unknown), from the effects of the ops in its body.
- `harp.mutates` on `host.for`/`host.while`: the slots and objects the loop writes. An
  object is named by the variable it was loaded from; aliasing is speculated away (two
  names are assumed to be two objects), and the speculation is recorded as
  `harp.mutates_status`.
"""

from __future__ import annotations

from torch_mlir import ir

from harp_ir import catalogue
from harp_ir.analysis import fresh_receiver, string_attr, walk

_CALL_EFFECT_SUMMARY = {"io": "io", "random": "random", "unknown": "unknown",
                        "graph_build": "mutates-globals", "config": "mutates-globals"}


def _root_name(value: ir.Value) -> str:
    """The variable an object was reached from: `a` for `a`, `a.b`, `a[0].c`."""
    op = value.owner
    while isinstance(op, ir.OpView) or isinstance(op, ir.Operation):
        op = op.operation
        if op.name == "host.load":
            return string_attr(op, "name")
        if op.name in ("host.getattr", "host.getitem"):
            op = op.operands[0].owner
            continue
        return ""
    return ""


def _body_ops(op: ir.Operation):
    """The ops that running `op`'s regions runs: nested defs and classes are only created
    (their bodies are not run), so their regions are skipped."""
    for region in op.regions:
        for block in region.blocks:
            for child in block.operations:
                child = child.operation
                yield child
                if child.name not in ("host.func", "host.class"):
                    yield from _body_ops(child)


def function_effects(func: ir.Operation) -> list[str]:
    """The effect summary of a host.func, from the ops in its body. Objects reached only
    from the function's own locals are speculated not to escape."""
    params = {ir.StringAttr(a).value for a in ir.ArrayAttr(func.attributes["arg_names"])}
    ops = list(_body_ops(func))
    local = {string_attr(o, "name") for o in ops
             if o.name == "host.store" and not string_attr(o, "scope")} - params
    found: set[str] = set()
    for op in ops:
        name = op.name
        if name == "host.call" and string_attr(op, "method") in _MUTATING_METHODS \
                and string_attr(op, "effect", "unknown") == "unknown":
            root = string_attr(op, "harp.receiver").split(".")[0]
            if root in params:
                found.add("mutates-argument")
            elif root not in local:
                found.add("mutates-globals")
            continue
        if name in ("host.call", "host.opaque"):
            effect = string_attr(op, "effect", "unknown")
            if effect == "mutate":
                recv = string_attr(op, "harp.receiver").split(".")[0]
                found.add("mutates-argument" if recv in params else "unknown")
            elif effect in _CALL_EFFECT_SUMMARY:
                found.add(_CALL_EFFECT_SUMMARY[effect])
        elif name == "host.store" and string_attr(op, "scope") in ("global", "nonlocal"):
            found.add("mutates-globals")
        elif name in ("host.setattr", "host.setitem", "host.delitem"):
            root = _root_name(op.operands[0])
            if root in params:
                found.add("mutates-argument")
            elif root not in local:
                found.add("mutates-globals")
        elif name in ("host.yield_value", "host.await"):
            found.add("unknown")
    return sorted(found) or ["pure"]


def _iterated_ops(loop: ir.Operation):
    """The ops a loop runs on every iteration: its body (and a while's condition), not the
    `else` region, which runs once."""
    regions = loop.regions[:1] if loop.name == "host.for" else loop.regions[:2]
    for region in regions:
        for block in region.blocks:
            for op in block.operations:
                yield op.operation
                yield from walk(op.operation)


def loop_mutations(loop: ir.Operation) -> list[str]:
    """The slots and objects a loop writes on each iteration, by name."""
    written: set[str] = set()
    for op in _iterated_ops(loop):
        name = op.name
        if name == "host.store":
            written.add(string_attr(op, "name"))
        elif name in ("host.setattr", "host.setitem", "host.delitem"):
            root = _root_name(op.operands[0])
            written.add(root or "<object>")
        elif name == "host.call" and string_attr(op, "effect") == "mutate":
            if fresh_receiver(op):
                continue  # `torch.zeros(k, d).index_add_(...)` changes only a new tensor
            recv = string_attr(op, "harp.receiver").split(".")[0]
            written.add(recv or "<object>")
        elif name == "host.call" and string_attr(op, "method") in _MUTATING_METHODS:
            recv = string_attr(op, "harp.receiver").split(".")[0]
            if recv:
                written.add(recv)
    written.discard("")
    return sorted(written)


#: Python container methods that mutate their receiver
_MUTATING_METHODS = catalogue.load().container_mutators


def annotate_function(func: ir.Operation) -> list[str]:
    effects = function_effects(func)
    func.attributes["harp.effects"] = ir.ArrayAttr.get([ir.StringAttr.get(e) for e in effects])
    return effects


def annotate_loop(loop: ir.Operation) -> None:
    names = loop_mutations(loop)
    loop.attributes["harp.mutates"] = ir.ArrayAttr.get([ir.StringAttr.get(n) for n in names])
    loop.attributes["harp.mutates_status"] = ir.StringAttr.get("speculated")
