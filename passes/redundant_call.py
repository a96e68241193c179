"""--harp-redundant-call (HARP302): the same pure graph computation evaluated twice with
the same inputs.

Finds: two pure calls returning tensors, in the same block, with the same callee and
structurally equal arguments (the same slots, not written in between, the same constants,
the same pure sub-expressions). Any write to an involved slot, or a call that may mutate
(effect mutate or unknown), in between ends the match.

Only computations worth a variable are reported: matrix products, convolutions, linear
algebra, distances and reductions over whole tensors (`_COSTLY`); an element-wise op or a
view (`x.t()`, `y.view_as(x)`) costs about as much as reading a saved result.

Assumes: the computation is pure (from the API catalogue) and no argument is changed
through an alias between the two calls.
"""

from __future__ import annotations

import re

from harp_ir.analysis import Assumption, record_hint, span, string_attr, value_kind, walk
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


def run(module, pass_=None) -> None:
    for op in [module, *walk(module)]:
        for region in op.regions:
            for block in region.blocks:
                _check_block(block)


RULE = Rule(
    flag="harp-redundant-call",
    summary="Find the same pure computation evaluated twice (HARP302)",
    run=run,
    hint=HintSpec(
        id="HARP302",
        name="redundant-graph-call",
        finds="the same pure graph computation with the same inputs evaluated twice",
        why="the second evaluation repeats work whose result is already at hand",
        refactoring="reuse the result",
        before="a = torch.matmul(x, w)\n"
               "b = torch.matmul(x, w) + 1\n",
        after="a = torch.matmul(x, w)\n"
              "b = a + 1\n",
        assumptions=("tensor", "pure", "no-alias"),
    ),
)
