"""--harp-memory-converted (HARP207): a whole memory turned into a tensor on every step.

Finds: a tensor or array built from a comprehension over a collection an object keeps
(`torch.tensor([t.s for t in self.replay_buffer])`, `np.array([...])`, `np.stack`), when
the program adds to that collection in a method (`self.replay_buffer.append(t)`,
`self.replay_buffer[i] = t`), never empties it (no `= []`, `.clear()`, `del x[:]` outside
`__init__`: an on-policy rollout buffer converted once per rollout and emptied is fine),
and the conversion runs on every step of the program's training (through the calls that
lead to it, guards counted). Each step then walks and copies every stored item in Python,
O(memory size), typically to use a small sample of it. A batch sampled from such a memory
(`experiences = random.sample(self.memory, k)`, then `np.vstack([e.state for e in
experiences])` per field, or a loop over drawn indices appending each item's fields to
lists, `s, a = self.buffer[i]; states.append(s)`, then `np.array(states)`) is one hint per
sampling function: O(batch) Python work per step,
worth it where the step is short (a program on a GPU; a medium-risk step-share).

Assumes: the memory holds many items when the step runs (a replay memory of thousands),
and the step runs on most iterations.
"""

from __future__ import annotations

from harp_ir import callgraph
from harp_ir.analysis import (
    Assumption,
    base_classes,
    call_arguments,
    called_functions,
    class_methods,
    enclosing_loop,
    enclosing_scope,
    host_module,
    passed_arguments,
    producer,
    reaching_store,
    record_hint,
    returned_values,
    same_op,
    self_class,
    stated_int,
    stored_once,
    stored_values,
    string_attr,
    strings_attr,
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
    """(class, attribute, sampled) when the call converts, element by element, a
    comprehension whose outer loop walks `self.attr` (sampled False) or a local bound once
    to `random.sample(self.attr, k)` (sampled True), or converts each field of such a
    sample (`map(np.stack, zip(*batch))`, sampled True); else None."""
    appended = _appended_items(call) if _converts(call) else None
    if appended is not None:
        cls = self_class(appended.operands[0])
        return (cls, string_attr(appended, "attr"), True) if cls is not None else None
    walked = (_walked_by_comprehension(call) or _unzipped_field(call) or
              _converted_whole(call)) if _converts(call) else _zipped_fields(call)
    sampled = False
    if walked is not None and walked.name == "host.load" and _global_name(walked):
        # a memory a script or notebook keeps at module level (`exp_buffer = deque(...)`)
        return host_module(walked), string_attr(walked, "name"), False
    if walked is not None and walked.name == "host.load":
        # every value the local holds is a sample of the same memory (`batch =
        # random.sample(self.buffer, self.count)` on one branch, `..., k)` on the other)
        made = [_sample_made(v) for v in stored_values(walked)]
        memories = [producer(m.operands[1]) if m is not None else None for m in made]
        if not memories or any(m is None or m.name != "host.getattr" for m in memories) \
                or len({string_attr(m, "attr") for m in memories}) != 1:
            return None
        walked, sampled = memories[0], True
    if walked is None or walked.name != "host.getattr":
        return None
    cls = self_class(walked.operands[0])
    return (cls, string_attr(walked, "attr"), sampled) if cls is not None else None


def _appended_items(call):
    """For `np.array(states)` where `states` is a local list, empty before a loop that
    appends to it a field of one item of `self.memory` per iteration (`s, a, r =
    self.memory[i]; states.append(np.array(s))`): the `self.memory` op; else None."""
    field = producer(call.operands[1]) if len(call.operands) > 1 else None
    if field is None or field.name != "host.load" or string_attr(field, "scope"):
        return None
    name, scope = string_attr(field, "name"), enclosing_scope(field)
    if stored_values(field):  # only ever the empty list the loop fills
        return None
    appended = _appends(scope, name)
    memories = [_item_of(o.operands[1]) for o in appended]
    if not memories or any(m is None for m in memories) or \
            len({string_attr(m, "attr") for m in memories}) != 1:
        return None
    return memories[0]


def _appends(scope, name: str) -> list:
    """The calls in a loop of `scope` that add to its local list `name`."""
    return [o for o in walk(scope) if o.name == "host.call" and
            string_attr(o, "method") in _ADDS and len(o.operands) == 2 and
            string_attr(o, "harp.receiver") == name and enclosing_loop(o) is not None]


def _assembling_loops(call) -> list:
    """The loops that fill the list `call` converts (`for i in indexes: ...append(...)`)."""
    field = producer(call.operands[1]) if len(call.operands) > 1 else None
    if field is None or field.name != "host.load":
        return []
    loops = [enclosing_loop(o) for o in _appends(enclosing_scope(field),
                                                  string_attr(field, "name"))]
    return [loop for i, loop in enumerate(loops)
            if not any(same_op(loop, other) for other in loops[:i])]


def _item_of(value, depth: int = 0):
    """The `self.memory` op when `value` is one item of it, or a field of one, through
    unpacking, names and array conversions (`np.array(s, copy=False)` of `s, a =
    self.memory[i]`); else None."""
    made = producer(value)
    if made is None or depth > 4:
        return None
    if made.name == "host.load":
        stored = stored_once(made)
        return _item_of(stored, depth + 1) if stored is not None else None
    if made.name == "host.unpack":
        return _item_of(made.operands[0], depth + 1)
    if made.name == "host.call" and _converts(made) and len(made.operands) > 1:
        return _item_of(made.operands[1], depth + 1)
    if made.name == "host.getitem":
        memory = producer(made.operands[0])
        if memory is not None and memory.name == "host.getattr" and \
                _is_self(memory.operands[0]):
            return memory
        if memory is not None and memory.name == "host.getitem":  # `self.memory[i][0]`
            return _item_of(made.operands[0], depth + 1)
    return None


def _sample_made(value, depth: int = 0):
    """The `random.sample(memory, k)` call whose result `value` is: made here, or returned
    by the program's method that `value` calls (`minibatch =
    self.replay_buffer.get_batch(64)`, `get_batch` returning `random.sample(self.buffer,
    k)`); None otherwise."""
    made = producer(value)
    if made is not None and made.name == "host.unpack" and depth <= 3:
        # `transitions, idx, w = self.memory.sample(k)`: that place of what it returns
        source = producer(made.operands[0])
        returned = [_tuple_place(r, value.result_number) for r in returned_values(source)] \
            if source is not None and source.name == "host.call" and \
            called_functions(source) else []
        found = [_sample_made(r, depth + 1) if r is not None else None for r in returned]
        return found[0] if found and all(f is not None for f in found) else None
    if made is None or made.name != "host.call" or depth > 3:
        return None
    if string_attr(made, "qualname") == "random.sample":
        return made if len(made.operands) >= 2 else None
    returned = [_sample_made(v, depth + 1) for v in returned_values(made)] \
        if called_functions(made) else []
    return returned[0] if returned and all(r is not None for r in returned) else None


def _tuple_place(value, place: int):
    """The element at `place` of the tuple display `value` is made by, else None."""
    made = producer(value)
    return made.operands[place] if made is not None and made.name == "host.tuple" and \
        place < len(made.operands) else None


def _unzipped_field(call):
    """For `torch.tensor(states)` with `states, actions, ... = zip(*batch)` (every value
    the local holds is a field so unzipped): the op that makes `batch`; else None."""
    field = producer(call.operands[1]) if len(call.operands) > 1 else None
    if field is None or field.name != "host.load":
        return None
    reached = reaching_store(field)  # `s = torch.tensor(s)` rebinds the field after
    values = [reached.operands[0]] if reached is not None else stored_values(field)
    zips = [producer(producer(v).operands[0]) for v in values
            if producer(v) is not None and producer(v).name == "host.unpack"]
    if not zips or len(zips) != len(values) or any(
            z is None or string_attr(z, "qualname") != "builtins.zip" or
            len(z.operands) != 2 or strings_attr(z, "kwnames") != ["*"] for z in zips):
        return None
    batches = {producer(z.operands[1]) for z in zips}
    return batches.pop() if len(batches) == 1 else None


def _converts(call) -> bool:
    return string_attr(call, "qualname") in _CONVERSIONS


def _converted_whole(call):
    """For `np.array(self.memory)` or `np.array(exp_buffer)`: the op reading the
    collection converted whole, element by element; else None."""
    given = producer(call.operands[1]) if len(call.operands) > 1 else None
    if given is None or given.name not in ("host.getattr", "host.load"):
        return None
    return given


def _global_name(load) -> bool:
    """Whether a load reads a module-level name: at the module's top level, or declared
    or resolved global in a function."""
    return string_attr(load, "scope") == "global" or \
        enclosing_scope(load).name == "host.module"


def _walked_by_comprehension(call):
    """The op whose value the outer loop of the call's comprehension argument walks."""
    comp = producer(call.operands[1]) if len(call.operands) > 1 else None
    if comp is None or comp.name != "host.comprehension":
        return None
    loops = [o for o in comp.regions[0].blocks[0].operations if o.operation.name == "host.for"]
    return producer(loops[0].operation.operands[0]) if loops else None


def _zipped_fields(call):
    """For `map(np.stack, zip(*batch))`: the op that makes `batch`; else None."""
    callee = producer(call.operands[0])
    if callee is None or callee.name != "host.load" or string_attr(callee, "name") != "map" \
            or string_attr(callee, "scope") != "builtin" or len(call.operands) != 3:
        return None
    function, zipped = (producer(v) for v in list(call.operands)[1:])
    if function is None or string_attr(function, "qualname") not in _CONVERSIONS or \
            zipped is None or string_attr(zipped, "qualname") != "builtins.zip" or \
            len(zipped.operands) != 2 or \
            strings_attr(zipped, "kwnames") != ["*"]:
        return None
    return producer(zipped.operands[1])


def _grows_and_kept(cls, attr: str, sampled: bool = False) -> bool:
    """Whether a method of `cls` (or one it inherits) adds to `self.attr` and none but
    `__init__` empties or rebinds it (a sample's cost does not depend on emptying: only
    the adding counts). For a module (`cls` a file), whether its code adds to the global
    `attr` and binds it once, at the top level, and never empties it."""
    if cls.name == "host.module":
        return _global_grows_and_kept(cls, attr)
    grows = False
    methods = {}  # its own and those it inherits from the program's classes
    for owner in reversed([cls, *base_classes(cls)]):
        methods.update(class_methods(owner))
    for name, method in methods.items():
        for op in walk(method):
            target = _self_attribute(op, attr)
            if target is None:
                continue
            kind, use = target
            if not sampled and kind == "setattr" and name != "__init__":
                return False  # `self.buffer = []` after an update: a rollout, not a memory
            if not sampled and (kind == "method" and use in _EMPTIES or kind == "delitem"):
                return False
            grows = grows or kind == "setitem" or kind == "method" and use in _ADDS
    return grows


def _global_grows_and_kept(module, name: str) -> bool:
    """Whether the module's code adds to its global `name` (`exp_buffer.append(t)`), binds
    it once, at its top level outside any loop, and never empties it."""
    grows, binds = False, 0
    for op in walk(module):
        if op.name == "host.store" and string_attr(op, "name") == name and \
                (enclosing_scope(op).name == "host.module" or
                 string_attr(op, "scope") == "global"):
            binds += 1
            if enclosing_scope(op).name != "host.module" or enclosing_loop(op) is not None:
                return False  # rebound in a function or per episode: emptied, a rollout
            continue
        held, method = _method_on(op)
        if held is None or held.name != "host.load" or string_attr(held, "name") != name or \
                not _global_name(held):
            continue
        if method in _EMPTIES:
            return False
        grows = grows or method in _ADDS
    return grows and binds == 1


def _method_on(op):
    """(the op making the receiver, the method) of a method call `x.m(...)`; (None, "")
    for anything else."""
    callee = producer(op.operands[0]) if op.name == "host.call" and op.operands else None
    if callee is None or callee.name != "host.getattr":
        return None, ""
    return producer(callee.operands[0]), string_attr(callee, "attr")


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
    holder, method = _method_on(op)
    if holder is not None and holder.name == "host.getattr" and \
            string_attr(holder, "attr") == attr and _is_self(holder.operands[0]):
        return "method", method
    return None


def _is_self(value) -> bool:
    return self_class(value) is not None


def run(module, pass_=None) -> None:
    grouped: dict = {}  # the sampling function -> its conversions of a sample, in order
    for op in walk(module):
        if op.name != "host.call":
            continue
        kept = _kept_collection(op)
        if kept is None or not _grows_and_kept(*kept):
            continue
        if kept[2]:
            grouped.setdefault(enclosing_scope(op), []).append((op, kept))
        else:
            _report_whole(op, kept)
    for ops in grouped.values():
        _report_sample(ops)


def _report_whole(op, kept) -> None:
    ctx = callgraph.per_step(op, callgraph.training_work)
    if ctx is None:
        return
    cls, attr, _ = kept
    made = string_attr(op, "qualname").replace("numpy.", "np.")
    held, adder = (attr, "the program") if cls.name == "host.module" else \
        (f"self.{attr}", f"`{string_attr(cls, 'sym_name')}`")
    message = (f"`{made}(...)` converts every item of `{held}` {ctx.phrase(op)}: "
               f"{adder} adds to it and never empties it, so each "
               f"step walks and copies the whole memory in Python; keep the memory in "
               f"preallocated arrays written in place (`states[i] = s`) and index "
               f"the sample you need")
    record_hint(op, HINT, message, ctx.frequency_assumptions(), related=[ctx.site])


#: a sampled batch smaller than this costs tens of microseconds to assemble: blind readers
#: judged batches of 32 and 64 items a few percent of a step at most, batches of 100 to
#: 256 items about a tenth of a short step
_SMALL_BATCH = 100


def _batch_size(call) -> int | None:
    """How many items the sampled batch that `call` converts holds, when the program
    states it: the `k` of `random.sample(memory, k)`, or the number of indices the loop
    that fills the converted list walks (`np.random.randint(0, n, size=k)`,
    `np.random.choice(n, k)`, `[... for _ in range(k)]`), through parameters every call
    passes the same int for."""
    loops = _assembling_loops(call) if _converts(call) else []
    if loops:
        return _count_of(loops[0].operands[0])
    walked = _walked_by_comprehension(call) if _converts(call) else None
    if walked is None or walked.name != "host.load":
        return None
    made = [_sample_made(v) for v in stored_values(walked)]
    sizes = {_drawn(m) if m is not None else None for m in made}
    return sizes.pop() if len(sizes) == 1 else None


def _count_of(items, depth: int = 0) -> int | None:
    """The number of items `items` holds, when made by a draw of k indices, a
    comprehension over `range(k)`, or `enumerate` of one, possibly passed as a parameter."""
    made = producer(items)
    if made is None or depth > 3:
        return None
    if made.name == "host.load":
        stored = stored_once(made)
        if stored is not None and producer(stored) is not None:
            return _count_of(stored, depth + 1)
        passed = passed_arguments(items)
        counts = {_count_of(a, depth + 1) for a, _ in passed} if passed else {None}
        return counts.pop() if len(counts) == 1 else None
    if made.name == "host.comprehension":
        loops = [o.operation for o in made.regions[0].blocks[0].operations
                 if o.operation.name == "host.for"]
        ranged = producer(loops[0].operands[0]) if len(loops) == 1 else None
        if ranged is not None and string_attr(ranged, "qualname") == "builtins.range" and \
                len(ranged.operands) == 2:
            return stated_int(ranged.operands[1])
        return None
    if made.name == "host.call" and string_attr(made, "qualname") == "builtins.enumerate":
        args = call_arguments(made)
        return _count_of(args[0][1], depth + 1) if args and not args[0][0] else None
    return _drawn(made) if made.name == "host.call" else None


def _drawn(draw) -> int | None:
    """The number of items a draw makes: `random.sample(pool, k)`, `np.random.choice(n,
    k)` (or `size=k`), `np.random.randint(low, high, size=k)`."""
    qualname, args = string_attr(draw, "qualname"), call_arguments(draw)
    positional, keyword = [v for k, v in args if not k], dict(args)
    place = {"random.sample": 1, "numpy.random.choice": 1, "numpy.random.randint": 2}.get(
        qualname)
    if place is None:
        return None
    size = keyword.get("size", keyword.get("k"))
    if size is None and len(positional) > place:
        size = positional[place]
    return stated_int(size) if size is not None else None


def _report_sample(ops) -> None:
    """One hint per sampling function, at its first conversion: the batch is assembled
    from Python objects field by field (`np.vstack([e.state for e in experiences])`)."""
    op, (cls, attr, _) = ops[0]
    ctx = callgraph.per_step(op, callgraph.training_work)
    if ctx is None:
        return
    count = f"{len(ops)} conversions" if len(ops) > 1 else "a conversion per field"
    message = (f"a batch sampled from `self.{attr}` is assembled from "
               f"Python objects one at a time ({count}) {ctx.phrase(op)}; keep the memory "
               f"in preallocated arrays written in place (`self.states[i] = s`) and gather "
               f"the batch with one index per field (`self.states[idx]`)")
    size = _batch_size(op)
    small = size is not None and size < _SMALL_BATCH
    assumptions = ctx.frequency_assumptions() + [
        ctx.on_gpu(op),
        Assumption("step-share", f"self.{attr}", "high" if small else "medium", "speculated",
                   f"a batch of {size} items costs tens of microseconds to assemble: a few "
                   f"percent of a step at most" if small else
                   "a batch of a hundred items or more costs a fraction of a millisecond: "
                   "worth it when the step is short (small networks on a GPU)")]
    assembling = [loop for o, _ in ops[:1] for loop in _assembling_loops(o)]
    record_hint(op, HINT, message, assumptions,
                related=[ctx.site, *assembling, *(other for other, _ in ops[1:])])


RULE = Rule(
    flag="harp-memory-converted",
    summary="Find a whole kept memory converted to a tensor on every step (HARP207)",
    run=run,
    hint=HintSpec(
        id="HARP207",
        name="memory-converted-per-step",
        finds="a tensor or array built on every training step from a whole collection the "
              "program keeps adding to and never empties, an object's or a script's (a replay "
              "memory: `torch.tensor([t.s for t in self.replay_buffer])`, "
              "`np.array(exp_buffer)`), or a batch of "
              "a hundred items or more sampled from such a memory and assembled field by "
              "field from Python objects (per field, or in a loop over drawn indices)",
        why="each step walks and copies every stored item in Python: the cost grows with "
            "the memory (milliseconds for thousands of items), usually to use a small "
            "sample of it",
        refactoring="preallocated arrays written in place, indexed by the sample",
        before="s = torch.tensor([t.s for t in self.memory])[idx]\n",
        after="self.states[self.pos] = s  # when storing, into np.empty((capacity, n))\n"
              "s = torch.from_numpy(self.states[idx])\n",
        assumptions=("every-iteration", "hot-loop", "accelerator", "step-share"),
    ),
)
