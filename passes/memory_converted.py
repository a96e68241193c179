"""--harp-memory-converted (HARP207): a whole memory turned into a tensor on every step.

Finds: a tensor or array built from a comprehension over a collection an object keeps
(`torch.tensor([t.s for t in self.replay_buffer])`, `np.array([...])`, `np.stack`), when
the program adds to that collection in a method (`self.replay_buffer.append(t)`,
`self.replay_buffer[i] = t`), never empties it (no `= []`, `.clear()`, `del x[:]` outside
`__init__`: an on-policy rollout buffer converted once per rollout and emptied is fine),
and the conversion runs on every step of the program's training (through the calls that
lead to it, guards counted). Each step then walks and copies every stored item in Python,
O(memory size), typically to use a small sample of it.

Assumes: the memory holds many items when the step runs (a replay memory of thousands),
and the step runs on most iterations.
"""

from __future__ import annotations

from harp_ir import callgraph
from harp_ir.analysis import (
    class_methods,
    producer,
    record_hint,
    self_class,
    string_attr,
    walk,
)
from harp_ir.rules import HintSpec, Rule

HINT = "HARP207"
#: calls that copy every element of a Python sequence into one tensor or array
_CONVERSIONS = ("torch.tensor", "torch.Tensor", "torch.FloatTensor", "torch.LongTensor",
                "torch.as_tensor", "torch.stack", "torch.cat", "numpy.array",
                "numpy.asarray", "numpy.stack", "numpy.vstack", "numpy.concatenate",
                "tensorflow.constant", "tensorflow.convert_to_tensor")
_ADDS = ("append", "appendleft", "extend", "insert")
_EMPTIES = ("clear",)


def _kept_collection(call):
    """(class, attribute) when the call's first argument is a comprehension whose outer
    loop walks `self.attr`; else None."""
    comp = producer(call.operands[1]) if len(call.operands) > 1 else None
    if comp is None or comp.name != "host.comprehension":
        return None
    loops = [o for o in comp.regions[0].blocks[0].operations if o.operation.name == "host.for"]
    if not loops:
        return None
    walked = producer(loops[0].operation.operands[0])
    if walked is None or walked.name != "host.getattr":
        return None
    cls = self_class(walked.operands[0])
    return (cls, string_attr(walked, "attr")) if cls is not None else None


def _grows_and_kept(cls, attr: str) -> bool:
    """Whether a method of `cls` adds to `self.attr` and none but `__init__` empties or
    rebinds it."""
    grows = False
    for name, method in class_methods(cls).items():
        for op in walk(method):
            target = _self_attribute(op, attr)
            if target is None:
                continue
            kind, use = target
            if kind == "setattr" and name != "__init__":
                return False  # `self.buffer = []` after an update: a rollout, not a memory
            if kind == "method" and use in _EMPTIES or kind == "delitem":
                return False
            grows = grows or kind == "setitem" or kind == "method" and use in _ADDS
    return grows


def _self_attribute(op, attr: str):
    """How `op` touches `self.attr`: ("setattr", ""), ("setitem", ""), ("delitem", ""),
    ("method", name) for `self.attr.name(...)`; None when it does not."""
    if op.name == "host.setattr" and string_attr(op, "attr") == attr and \
            _is_self(op.operands[0]):
        return "setattr", ""
    if op.name in ("host.setitem", "host.delitem"):
        holder = producer(op.operands[0])
        if holder is not None and holder.name == "host.getattr" and \
                string_attr(holder, "attr") == attr and _is_self(holder.operands[0]):
            return op.name.removeprefix("host."), ""
    if op.name == "host.call":
        callee = producer(op.operands[0])
        holder = producer(callee.operands[0]) if callee is not None and \
            callee.name == "host.getattr" else None
        if holder is not None and holder.name == "host.getattr" and \
                string_attr(holder, "attr") == attr and _is_self(holder.operands[0]):
            return "method", string_attr(callee, "attr")
    return None


def _is_self(value) -> bool:
    return self_class(value) is not None


def run(module, pass_=None) -> None:
    for op in walk(module):
        if op.name != "host.call" or string_attr(op, "qualname") not in _CONVERSIONS:
            continue
        kept = _kept_collection(op)
        if kept is None or not _grows_and_kept(*kept):
            continue
        ctx = callgraph.per_step(op, callgraph.training_work)
        if ctx is None:
            continue
        cls, attr = kept
        made = string_attr(op, "qualname").replace("numpy.", "np.")
        message = (f"`{made}(...)` converts every item of `self.{attr}` {ctx.phrase(op)}: "
                   f"`{string_attr(cls, 'sym_name')}` adds to it and never empties it, so each "
                   f"step walks and copies the whole memory in Python; keep the memory in "
                   f"preallocated arrays written in place (`self.states[i] = s`) and index "
                   f"the sample you need")
        assumptions = []
        guard = ctx.how_often.assumption(ctx.loop)
        if guard is not None:
            assumptions.append(guard)
        outer = ctx.per_outer_iteration()
        if outer is not None:
            assumptions.append(outer)
        record_hint(op, HINT, message, assumptions, related=[ctx.site])


RULE = Rule(
    flag="harp-memory-converted",
    summary="Find a whole kept memory converted to a tensor on every step (HARP207)",
    run=run,
    hint=HintSpec(
        id="HARP207",
        name="memory-converted-per-step",
        finds="a tensor or array built on every training step from a comprehension over a "
              "whole collection the program keeps adding to and never empties (a replay "
              "memory: `torch.tensor([t.s for t in self.replay_buffer])`)",
        why="each step walks and copies every stored item in Python: the cost grows with "
            "the memory (milliseconds for thousands of items), usually to use a small "
            "sample of it",
        refactoring="preallocated arrays written in place, indexed by the sample",
        before="s = torch.tensor([t.s for t in self.memory])[idx]\n",
        after="self.states[self.pos] = s  # when storing, into np.empty((capacity, n))\n"
              "s = torch.from_numpy(self.states[idx])\n",
        assumptions=("every-iteration", "hot-loop"),
    ),
)
