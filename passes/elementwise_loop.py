"""--harp-elementwise-loop (HARP401): a Python loop over the elements of a tensor.

Finds: `for i in range(len(t))` / `range(t.shape[0])` / `range(t.size(0))` loops whose
body indexes a tensor with the loop variable (`t[i]`, `out[i] = ...`), and `for v in t`
loops over a tensor whose body computes on `v`: one framework op (and, on a GPU, one
kernel launch) per element instead of one vectorized op. Also a loop that reads a device
tensor's elements on the host one per iteration (`values[i].item()`, `x[i, s[i]:e[i]]`
with tensor bounds, `[a.item() for a in t]`): a wait on the device each, where one
`.tolist()` before the loop reads them all (HARP201 leaves such syncs to this rule). The
tensor is followed through the program (`analysis.tensor_valued`), the loop's frequency
through up to four calls (a retina's patch loop in a module's `forward`). And a
recurrence over `range`/`reversed(range)` of a tensor's elements (an iteration reads a local
the one before stored, and calls nothing but pure library functions: a discounted return,
GAE): it cannot be one op, but the same arithmetic on host numbers costs a fraction of one
op dispatch per element. Beside a rollout loop with the same bound it runs once per step,
a few percent of a step that runs a model (the aggressive level's). And a loop over
`range` that calls a method or function of the program on one element of a tensor per
iteration (`attn[b, i] = self.score(h[:, b], enc[i, b])`), its other arguments unchanged by
the loop and nothing carried between iterations, when the function runs tensor ops and
keeps no state (`analysis.stateless_function`): each call runs its ops on one element. A
model's `forward` called so is HARP403's. And a loop over an episode's per-step tensors (a
list the acting loop appends a log-probability or a value to, one per step, that carries a
gradient towards the trained model) running several tensor ops, or a backward, per element
(REINFORCE's and actor-critic's loss built step by step): one `torch.stack` of the list and
vectorized ops give the same loss.

Assumes: the iterations are independent (no element depends on an earlier one), which
the refactoring to a vectorized op needs.
"""

from __future__ import annotations

import libcst as cst
from torch_mlir import ir

from harp_ir import autograd, callgraph, catalogue
from harp_ir.analysis import (
    Assumption,
    called_function,
    describe_loop,
    does_model_work,
    element_reads,
    enclosing_loop,
    enclosing_scope,
    few_iterations,
    holds,
    host_module,
    in_compiled_function,
    int_attr,
    invariant_in,
    iterated_range,
    loop_counter,
    loop_mutates,
    loop_names,
    loops_around,
    model_forward,
    passed_arguments,
    producer,
    reaching_definition,
    reads_names,
    receiver,
    record_hint,
    same_op,
    setting_int,
    small_range,
    stateless_function,
    stored_once,
    string_attr,
    tensor_valued,
    user,
    value_kind,
    value_name,
    walk,
)
from harp_ir.callgraph import function_name
from harp_ir.codemods import Decline, node_at, syntax, unproved
from harp_ir.frontend.names import dotted_name
from harp_ir.passes.per_sample_call import example_read
from harp_ir.rules import Fix, HintSpec, Rule, established
from harp_ir.shapes import tensor_rank

HINT = "HARP401"


def _sized_tensor(value, depth: int = 0) -> str:
    """For `len(t)`, `t.shape[0]`, `t.size(0)`, `t.shape[0] - 1`, also through a local
    bound once to one (`n = len(t)`): the tensor's name."""
    owner = value.owner
    if not hasattr(owner, "operation") or depth > 3:
        return ""
    op = owner.operation
    if op.name == "host.load":
        bound = stored_once(op)
        return _sized_tensor(bound, depth + 1) if bound is not None else ""
    if op.name == "host.call" and string_attr(op, "qualname") == "builtins.len":
        arg = op.operands[1] if len(op.operands) > 1 else None
        return value_name(arg) if arg is not None and tensor_valued(arg) else ""
    if op.name == "host.call" and string_attr(op, "method") == "size":
        recv = op.operands[0].owner.operation.operands[0]
        return value_name(recv) if tensor_valued(recv) else ""
    if op.name == "host.unpack" and value.result_number == 0:  # `B, C, H, W = x.shape`
        shape = producer(op.operands[0])
        if shape is not None and shape.name == "host.getattr" and \
                string_attr(shape, "attr") == "shape" and tensor_valued(shape.operands[0]):
            return value_name(shape.operands[0])
        return ""
    if op.name == "host.getitem":
        inner = op.operands[0].owner
        if hasattr(inner, "operation") and inner.operation.name == "host.getattr" and \
                string_attr(inner.operation, "attr") == "shape":
            recv = inner.operation.operands[0]
            return value_name(recv) if tensor_valued(recv) else ""
    if op.name == "host.binop":
        return _sized_tensor(op.operands[0], depth + 1)
    return ""


def _index_is(op, var: str) -> bool:
    """Whether a getitem/setitem indexes with the loop variable (`t[i]`)."""
    index = producer(op.operands[1])
    return index is not None and index.name == "host.load" and \
        string_attr(index, "name") == var


def _indexed_by(loop, var: str) -> bool:
    return any(((op.name == "host.getitem" and tensor_valued(op.operands[0])) or
                op.name == "host.setitem") and _index_is(op, var) for op in walk(loop))


def _only_indexes_host_data(loads) -> bool:
    """Whether every use of the loop variable, through index arithmetic and slices, is an
    index into something that is not a tensor (`data[i:i + n]` of a numpy array or a
    memmap): the loop gathers rows of host data, a host copy per element with no framework
    op to vectorize, and one fancy index would save little next to the step it feeds."""
    work = [load.result for load in loads]
    while work:
        for use in work.pop().uses:
            op = use.owner.operation if hasattr(use.owner, "operation") else use.owner
            if op.name in ("host.binop", "host.slice"):
                work.append(op.result)
            elif not (op.name == "host.getitem" and use.operand_number == 1 and
                      value_kind(op.operands[0]) != "tensor"):
                return False
    return True


def _elementwise_body(loop, var: str) -> bool:
    """The body reads the loop variable and does tensor arithmetic on what it read (not
    only on other values: `p.replace(root, root + "_crop")` over a batch's paths), not
    model calls."""
    ops = list(walk(loop))
    loads = [o for o in ops if o.name == "host.load" and string_attr(o, "name") == var]
    uses_var = bool(loads) and not _only_indexes_host_data(loads)
    element = _element_names(ops, var)
    arithmetic = any((o.name in ("host.binop", "host.unop") or (
        o.name == "host.call" and string_attr(o, "effect") == "pure" and
        string_attr(o, "harp.kind") == "tensor")) and len(o.results) == 1 and
        reads_names(o.result, element) for o in ops)
    model_call = any(o.name == "host.call" and hasattr(o.operands[0].owner, "operation") and
                     string_attr(o.operands[0].owner.operation, "harp.kind") == "module"
                     for o in ops)
    return uses_var and arithmetic and not model_call


def _element_names(ops, var: str) -> set[str]:
    """The loop variable and the names the body binds from values computed from it."""
    names, stores = {var}, [o for o in ops if o.name == "host.store" and o.operands]
    grown = True
    while grown:
        found = {string_attr(o, "name") for o in stores if string_attr(o, "name") not in names
                 and reads_names(o.operands[-1], names)}
        names |= found
        grown = bool(found)
    return names


def _tensor_assumptions(loop, var: str, iterable) -> list[Assumption]:
    """`tensor` for each value the loop visits by element (`x[i]`, or `x` in `for v in x`):
    the vectorized rewrite computes on the whole of each."""
    visited = [iterable] if value_kind(iterable) == "tensor" else []
    visited += [op.operands[0] for op in walk(loop) if op.name == "host.getitem"
                and value_kind(op.operands[0]) == "tensor" and _index_is(op, var)]
    assumptions = {}
    for value in visited:
        name, origin = value_name(value), producer(value)
        if not name or name in assumptions:
            continue
        proved = string_attr(origin, "harp.kind_status") == "proved"
        assumptions[name] = Assumption(
            "tensor", name, "low" if proved else "medium",
            "proved" if proved else "speculated",
            string_attr(origin, "harp.kind_reason") or f"`{name}` holds a tensor")
    return list(assumptions.values())


def _broadcast_assumptions(loop, var: str, iterable) -> list[Assumption]:
    """`broadcast` for each tensor or number the body reads whole whose rank is below the
    rank of the tensors it visits by element (all of one known rank): against the whole
    tensor it lines up with the same trailing dimensions as against one element, so the
    vectorized body computes each element as the loop did."""
    visited = [iterable] if value_kind(iterable) == "tensor" else []
    visited += [op.operands[0] for op in walk(loop) if op.name == "host.getitem"
                and value_kind(op.operands[0]) == "tensor" and _index_is(op, var)]
    ranks = {tensor_rank(v) for v in visited}
    if len(ranks) != 1 or None in ranks:
        return []
    rank = ranks.pop()
    visited_names = {value_name(v) for v in visited}
    found: dict[str, Assumption] = {}
    for op in walk(loop):
        name = string_attr(op, "name")
        if op.name != "host.load" or name in (var, *visited_names) or name in found:
            continue
        operand = tensor_rank(op.result)
        if operand is not None and operand < rank:
            found[name] = Assumption(
                "broadcast", name, "low", "proved",
                f"`{name}` has {operand} dimension{'s' * (operand != 1)}, fewer than the "
                f"{rank} of the tensor the loop visits: it broadcasts against the whole "
                f"tensor as against one element")
    return list(found.values())


def _carried(loop) -> list[str]:
    """The locals an iteration reads before it stores them: what the iteration before
    computed (`lastgaelam` in `advantages[t] = lastgaelam = delta + g * lastgaelam`)."""
    ops = list(walk(loop))
    locals_ = {string_attr(o, "name") for o in ops
               if o.name == "host.store" and not string_attr(o, "scope")}
    stored, carried = set(), []
    for op in ops:
        name = string_attr(op, "name")
        if op.name == "host.store" and not string_attr(op, "scope"):
            stored.add(name)
        elif op.name == "host.load" and name in locals_ and name not in stored and \
                name not in carried:
            carried.append(name)
    return [n for n in carried if n != string_attr(loop, "target")]


def _fed_back(loop, carried: list[str]) -> str:
    """A carried local that an iteration passes to a call and then computes anew from that
    call's result by further ops (`decoder_in = output.max(1)[1]` after `output, hidden =
    decoder(decoder_in, hidden)`): each iteration's input is what the one before decoded,
    so the iterations cannot run as one op. A state stored straight from the call's result
    (`hidden`) is a recurrence a sequence op runs whole. "" when there is none."""
    ops = list(walk(loop))
    for name in carried:
        fed = [c for o in ops if o.name == "host.load" and string_attr(o, "name") == name
               for u in o.result.uses if (c := user(u)).name == "host.call"]
        for store in ops:
            if store.name != "host.store" or string_attr(store, "name") != name:
                continue
            made = producer(store.operands[0])
            if made is None or made.name == "host.unpack" or \
                    any(same_op(made, c) for c in fed):
                continue  # the call's own result: a state passed back
            if any(_computed_from(store.operands[0], c, loop) for c in fed):
                return name
    return ""


def _computed_from(value, call, loop, depth: int = 0) -> bool:
    """Whether `value` is computed in `loop` from `call`'s result (through ops and the
    locals the loop stores)."""
    op = producer(value)
    if op is None or depth > 12 or not holds(loop, op):
        return False
    if same_op(op, call):
        return True
    if op.name == "host.load":
        return any(_computed_from(s.operands[0], call, loop, depth + 1)
                   for s in walk(loop) if s.name == "host.store" and
                   string_attr(s, "name") == string_attr(op, "name"))
    return any(_computed_from(v, call, loop, depth + 1) for v in op.operands)


def _only_arithmetic(loop) -> bool:
    """Whether an iteration only reads, computes and writes numbers and tensor elements:
    it calls nothing but pure library functions (no model, no environment step, no
    function of the program)."""
    return all(string_attr(op, "effect") == "pure" and not called_function(op)
               for op in walk(loop) if op.name == "host.call")


def _written_tensor(loop, var: str) -> str:
    """The tensor an iteration writes one element of (`out[t] = ...`), or ""."""
    return next((value_name(op.operands[0]) for op in walk(loop)
                 if op.name == "host.setitem" and _index_is(op, var) and
                 tensor_valued(op.operands[0]) and value_name(op.operands[0])), "")


def _element_ops(loop) -> int:
    """The framework ops an iteration runs on single elements: element reads and writes of
    tensors and the arithmetic on them."""
    return sum(1 for op in walk(loop) if op.name == "host.setitem" or (
        op.name == "host.getitem" and tensor_valued(op.operands[0])) or (
        op.name in ("host.binop", "host.unop") and tensor_valued(op.result)))


def run(module, pass_=None) -> None:
    for loop in walk(module):
        if loop.name != "host.for" or in_compiled_function(loop):  # graph loops there
            continue
        var = string_attr(loop, "target")
        iterable = loop.operands[0]
        if _report_element_calls(loop, iterable):
            continue
        if not _elementwise_body(loop, var):
            _host_reads(loop, var, iterable)
            _host_fill(loop)
            continue
        ranged = iterated_range(iterable)
        carried = _carried(loop) if ranged is not None else []
        tensor = ""
        if ranged is not None:
            tensor = _sized_tensor(list(ranged.operands)[-1])
            if not _indexed_by(loop, var):
                continue
            over = (tensor or _written_tensor(loop, var)) if carried else ""
            if over and _only_arithmetic(loop):
                _report_recurrence(loop, var, iterable, ranged, over, carried)
                continue
            if not tensor or len(ranged.operands) != 2 or \
                    producer(iterable) is not ranged or _fed_back(loop, carried):
                # `for i in range(size)` with `size` not a tensor's length: still a wait per
                # element read on the host (a decoder's `sequence[i].item()`)
                _host_reads(loop, var, iterable)
                continue
        elif value_kind(iterable) == "tensor":
            tensor = value_name(iterable) or "the tensor"
        else:
            continue
        message = (f"{describe_loop(loop)} visits `{tensor}` one element at a time, running "
                   f"framework ops per element; express the body as one vectorized op over "
                   f"the whole tensor")
        record_hint(loop, HINT, message, [
            Assumption("independent-iterations", describe_loop(loop), "medium",
                       "speculated", "no element depends on the result for an earlier one"),
            *_tensor_assumptions(loop, var, iterable),
            *_broadcast_assumptions(loop, var, iterable),
            *callgraph.loop_run_rate(loop),
        ])
    _report_step_lists(module)



# --- An episode's per-step tensors walked one at a time ------------------------------------
#
# REINFORCE and actor-critic updates keep one tensor per environment step (a log-probability,
# a value) in a list the acting loop appends to, then build the loss in a Python loop over
# that list: several tensor ops (and autograd nodes) per step of the episode, where stacking
# the list once gives the same loss in a few vectorized ops.

#: tensor methods a loss built per element runs (besides arithmetic and `torch.*` calls)
_LOSS_METHODS = frozenset({"log", "exp", "sum", "mean", "expand_as", "cuda", "to", "backward",
                           "pow", "mul", "add", "sub", "neg", "squeeze", "view", "detach"})


def _walked_lists(loop) -> list[ir.Value]:
    """The lists a loop walks element by element: what it iterates (through `reversed`,
    `zip`, `enumerate` and a `[::-1]` slice), or what its body indexes with its counter
    when it iterates `range` (`log_probs[i]` in `for i in reversed(range(len(rewards)))`)."""
    iterable, found = loop.operands[0], []
    work = [iterable]
    while work:
        value = work.pop()
        made = producer(value)
        qualname = string_attr(made, "qualname") if made is not None else ""
        if made is not None and qualname in ("builtins.reversed", "builtins.zip",
                                              "builtins.enumerate"):
            work.extend(list(made.operands)[1:])
        elif made is not None and made.name == "host.getitem":  # `self.data[::-1]`
            work.append(made.operands[0])
        elif iterated_range(value) is None:
            found.append(value)
    made = producer(iterable)
    inner = made.operands[1] if made is not None and len(made.operands) == 2 and \
        string_attr(made, "qualname") == "builtins.reversed" else iterable
    if iterated_range(iterable) is not None or iterated_range(inner) is not None:
        var = string_attr(loop, "target")
        found += [op.operands[0] for op in walk(loop) if op.name == "host.getitem" and
                  _index_is(op, var) and not tensor_valued(op.operands[0])]
    return found


def _appended_per_step(value, depth: int = 0) -> ir.Operation | None:
    """The loop that appends a tensor to the list `value` on each of its iterations and runs
    a model there (an acting loop storing each step's log-probability), when the list is a
    local, a parameter every call passes such a list for, or an attribute (`self.data`,
    `model.saved_actions`) added to so; None otherwise."""
    made = producer(value)
    if made is None or depth > 2:
        return None
    if made.name == "host.load":
        passed = passed_arguments(value)
        if passed:
            loops = [_appended_per_step(v, depth + 1) for v, _ in passed if v is not None]
            return loops[0] if loops and all(loop is not None for loop in loops) else None
        stored = stored_once(made)
        if stored is not None and producer(stored) is not None and \
                producer(stored).name == "host.getattr":
            return _appended_per_step(stored, depth + 1)  # `saved = model.saved_actions`
        name, scope = string_attr(made, "name"), enclosing_scope(made)
        adds = [o for o in walk(scope) if o.name == "host.call" and
                string_attr(o, "method") == "append" and
                string_attr(o, "harp.receiver") == name and same_op(enclosing_scope(o), scope)]
    elif made.name == "host.getattr":
        attr = string_attr(made, "attr")
        module = host_module(made)
        adds = [o for o in walk(module) if o.name == "host.call" and
                string_attr(o, "method") == "append" and
                string_attr(o, "harp.receiver").endswith("." + attr)] if module else []
    else:
        return None
    for add in adds:
        item = add.operands[1]
        if not _holds_tensor(item, depth):
            continue
        for ctx in callgraph.contexts(add):
            if does_model_work(ctx.loop):
                return ctx.loop
    return None


def _holds_tensor(item, depth: int) -> bool:
    """A tensor that carries a gradient towards a trained model (a log-probability, a
    value estimate), alone or in a tuple or record built with it (`SavedAction(
    m.log_prob(a), v)`, `(r, prob[a])`), or a parameter every call passes such a value
    for (`put_data(t)`)."""
    made = producer(item)
    parts = [item]
    if made is not None and made.name in ("host.tuple", "host.call"):
        parts += list(made.operands)[(1 if made.name == "host.call" else 0):]
    module = host_module(made) if made is not None else None
    optimized = autograd.optimized_modules(module) if module is not None else None
    if optimized is not None and any(
            autograd.gradient_free(v, optimized) == "no" for v in parts):
        return True
    passed = passed_arguments(item) if depth < 2 else None
    return bool(passed) and all(v is not None and _holds_tensor(v, depth + 1)
                                for v, _ in passed)


def _per_element_ops(loop) -> tuple[int, bool]:
    """(the tensor ops an iteration runs, whether it runs a backward)."""
    count, backward = 0, False
    for op in walk(loop):
        if op.name in ("host.binop", "host.unop"):
            count += 1
        elif op.name == "host.call":
            method = string_attr(op, "method")
            backward = backward or method == "backward"
            if string_attr(op, "qualname").startswith("torch.") or method in _LOSS_METHODS:
                count += 1
    return count, backward


def _builds_loss(loop) -> bool:
    """Whether what an iteration computes reaches a `backward()` after the loop (a policy
    loss appended per step, then stacked and summed), followed through its function and,
    when the loop is a script's, its top-level names."""
    return any(op.name in ("host.binop", "host.unop", "host.call") and op.results and
               autograd.flow(op.results[0], scripts=True).backwards for op in walk(loop))


def _report_step_lists(module) -> None:
    """HARP401 for a loop over an episode's per-step tensors (see above), unless the loop
    already holds a hint or runs a model itself (then it is a step, not an update)."""
    for loop in walk(module):
        if loop.name != "host.for" or "harp.hints" in loop.attributes or \
                in_compiled_function(loop) or \
                any(autograd.calls_module(o) for o in walk(loop)):
            continue
        count, backward = _per_element_ops(loop)
        if count < 3 and not backward:
            continue
        for value in _walked_lists(loop):
            steps = _appended_per_step(value)
            if steps is None or holds(steps, loop) or holds(loop, steps):
                continue
            if not backward and not _builds_loss(loop):
                break  # not a loss (a plot of each epoch's samples, GAE's detached returns)
            name = value_name(value) or "the list"
            what = "a backward pass" if backward else f"{count} tensor ops"
            message = (f"{describe_loop(loop)} walks the per-step tensors of `{name}` (one "
                       f"appended on each iteration of {describe_loop(steps)}) one at a time, "
                       f"running {what} per element; stack them once (`torch.stack`) and "
                       f"compute the loss with vectorized ops over the whole episode")
            record_hint(loop, HINT, message, [
                Assumption("independent-iterations", describe_loop(loop), "medium",
                           "speculated", "what carries from one element to the next (a "
                           "discounted return) is host arithmetic, computed before stacking"),
                Assumption("hot-loop", describe_loop(loop), "medium", "speculated",
                           "an episode of tens of steps or more: the per-element ops cost "
                           "about as much as acting"),
            ], related=[steps])
            break


def _element_call(loop):
    """A call in `loop`'s own body of a method or function of the program that runs tensor
    ops and keeps no state (`analysis.stateless_function`), given one element of a tensor
    (`self.score(hidden, outputs[i])`) and otherwise what the loop does not change: the
    function and the tensor's name; None when there is none."""
    changed = loop_mutates(loop)
    for op in walk(loop):
        if op.name != "host.call" or not same_op(enclosing_loop(op), loop) or \
                called_function(op) is None:
            continue
        args = list(op.operands)[1:]
        reads = [example_read(v, loop) for v in args]
        at = next((i for i, r in enumerate(reads) if r is not None), None)
        if at is None or not all(invariant_in(v, loop, clobbered=changed)
                                 for i, v in enumerate(args) if i != at):
            continue
        func = stateless_function(op)
        if func is None or model_forward(func):
            continue  # a model called per example is HARP403's
        element = reads[at]  # `outputs[i, b]`, seen through `.unsqueeze(0)`
        if element.name != "host.getitem":
            continue
        whole, index = element.operands[0], producer(element.operands[1])
        if tensor_valued(whole) or (index is not None and index.name == "host.tuple"):
            return func, value_name(whole) or "the tensor"  # `x[i, b]`: an array
    return None


def _report_element_calls(loop, iterable) -> bool:
    """HARP401 for a loop that calls a function of the program on one element of a tensor
    per iteration, independently (`attn[i] = self.score(h, enc[i])` for each encoder
    output): every call runs its framework ops on one element, where one batched
    computation over the whole tensor does them all at once."""
    if iterated_range(iterable) is None or _carried(loop) or callgraph.trains(loop):
        return False
    found = _element_call(loop)
    if found is None:
        return False
    func, tensor = found
    message = (f"{describe_loop(loop)} calls `{function_name(func)}` on one element of "
               f"`{tensor}` per iteration, running its framework ops on one element each "
               f"time; compute it for all the elements at once (the same ops on the whole "
               f"tensor, batched: `bmm`, broadcasting)")
    record_hint(loop, HINT, message, [
        Assumption("independent-iterations", describe_loop(loop), "medium", "speculated",
                   f"no call reads what an earlier one computed, and `{function_name(func)}` "
                   f"keeps nothing between calls"),
        *callgraph.loop_run_rate(loop),
    ])
    return True


def _report_recurrence(loop, var: str, iterable, ranged, tensor: str,
                       carried: list[str]) -> None:
    """HARP401 for a recurrence over time steps (a discounted return, GAE): it cannot be
    one element-wise op, but each iteration runs framework ops on single elements (a
    dispatch each, a kernel launch each on a GPU) where host numbers cost a fraction."""
    ops = _element_ops(loop)
    message = (f"{describe_loop(loop)} computes a recurrence over `{tensor}` one element at "
               f"a time (each iteration reads what the one before computed: "
               f"{', '.join(f'`{n}`' for n in carried)}), running about {ops} framework "
               f"ops on single elements per iteration; compute it on host numbers "
               f"(`.tolist()` or `.cpu().numpy()` once before the loop, one tensor after "
               f"it) or as a vectorized scan")
    rate = callgraph.loop_run_rate(loop)
    ctx = callgraph.per_step(loop, callgraph.training_work)
    steps = _steps_loop(loop, ctx.loop) if ctx is not None else None
    if steps is not None:
        # one iteration per step of the rollout beside it: its ops are per step too
        rate = [a for a in (ctx.how_often.assumption(ctx.loop), ctx.per_outer_iteration())
                if a is not None]
        message += (f"; it runs as many iterations as {describe_loop(steps)}, so that is "
                    f"about {ops} ops per step")
        # blind readers timed cleanrl's GAE loops (14 ops a step) at 3-4% of a PPO
        # iteration on a CPU, perhaps 10% on a GPU: a real cost, small beside a step that
        # runs a model and an environment
        rate.append(Assumption(
            "step-share", describe_loop(loop), "high", "speculated",
            f"about {ops} small ops per step, beside a step that runs a model (and an "
            f"environment): a few percent of it"))
    assumptions = [*_tensor_assumptions(loop, var, iterable), *rate]
    if small_range(ranged, settings=True):
        assumptions.append(Assumption("hot-loop", describe_loop(loop), "high", "speculated",
                                      "the loop runs a handful of times"))
    record_hint(loop, HINT, message, assumptions)


def _steps_loop(loop, outer) -> ir.Operation | None:
    """The loop of model work that the same iteration of `outer` runs beside `loop` with
    the same `range` bound (`for step in range(args.num_steps)` collecting a rollout, then
    `for t in reversed(range(args.num_steps))` over it), or None."""
    mine = iterated_range(loop.operands[0])
    key = _bound_key(list(mine.operands)[-1]) if mine is not None else None
    if key is None:
        return None
    for other in walk(outer):
        if other.name != "host.for" or same_op(other, loop) or holds(other, loop) or \
                holds(loop, other) or not does_model_work(other, strict=True):
            continue
        theirs = iterated_range(other.operands[0])
        if theirs is not None and _bound_key(list(theirs.operands)[-1]) == key:
            return other
    return None


def _bound_key(value, depth: int = 0):
    """A loop bound as a comparable key: a setting's stated integer, else the dotted name
    it reads (`args.num_steps`); None for anything else."""
    number = setting_int(value)
    if number is not None:
        return number
    op = producer(value)
    if op is None or depth > 4:
        return None
    if op.name == "host.load":
        return string_attr(op, "name")
    if op.name == "host.getattr":
        inner = _bound_key(op.operands[0], depth + 1)
        return f"{inner}.{string_attr(op, 'attr')}" if isinstance(inner, str) else None
    return None


def _shown_element(read, whole: str, var: str) -> str:
    """`start[i, 1]` (names and numbers of the index; `...` for anything else), or the
    loop's element `v`."""
    if read.name != "host.getitem":
        return f"`{var}`"
    index = producer(read.operands[1])
    parts = index.operands if index is not None and index.name == "host.tuple" else \
        [read.operands[1]]

    def shown(value) -> str:
        made = producer(value)
        if made is not None and made.name == "host.load":
            return string_attr(made, "name")
        if made is not None and made.name == "host.constant" and \
                string_attr(made, "kind") == "int":
            return str(int_attr(made, "value"))
        return "..."
    return f"`{whole}[{', '.join(shown(v) for v in parts)}]`"


def _host_fill(loop) -> None:
    """HARP401 for a loop that fills a tensor it allocated before, one element per
    iteration, from Python values (`t = torch.zeros(len(s)).long(); for c in range(len(s)):
    t[c] = chars.index(s[c])`, a character RNN's batch built each step): a framework op
    per element, where one `torch.tensor` of the list of values makes it at once. Reported
    where the loop runs inside a training step (through the calls that lead to it)."""
    counter = loop_counter(loop)
    write = next((op for op in walk(loop) if op.name == "host.setitem" and counter and
                  _index_is(op, counter) and _python_value(op.operands[2]) and
                  _allocated_before(op.operands[0], loop)), None)
    if write is None or few_iterations(loop):
        return
    ctx = callgraph.per_step(loop, callgraph.training_work)
    if ctx is None or not ctx.chain and not any(
            callgraph.training_work(outer) for outer in loops_around(loop)):
        return  # set-up or a pass over a data set once: not a step's cost
    whole = value_name(write.operands[0]) or "the tensor"
    message = (f"{describe_loop(loop)} fills `{whole}` one element at a time from Python "
               f"values (a framework op per element), {ctx.phrase(loop)}; collect the "
               f"values in a list and make the tensor once (`torch.tensor(values)`)")
    record_hint(loop, HINT, message, [
        Assumption("independent-iterations", describe_loop(loop), "low", "proved",
                   "each iteration writes its own element from values the loop does not "
                   "carry"),
        *ctx.frequency_assumptions()])


def _python_value(value, depth: int = 0) -> bool:
    """Whether `value` is a Python number the host computes without tensors or models: a
    constant, a builtin's result (`int(...)`, `ord(c)`), a method of a string, list or dict
    (`chars.index(s[c])`), an item of one (`vocab[w]`), or arithmetic on such values; not
    a model's output written per time step (`outputs[t] = decoder(...)`)."""
    op = producer(value)
    if op is None or depth > 6:
        return False
    if op.name == "host.load":
        made = reaching_definition(value, enclosing_scope(op))
        return made is not None and len(made.results) == 1 and \
            _python_value(made.result, depth + 1)
    if op.name == "host.constant":
        return True
    if op.name in ("host.binop", "host.unop"):
        return all(_python_value(v, depth + 1) for v in op.operands)
    if op.name == "host.getitem":
        return _plain_object(op.operands[0])
    if op.name != "host.call" or string_attr(op, "harp.kind") in ("tensor", "module",
                                                                  "ndarray"):
        return False
    if string_attr(op, "qualname").startswith("builtins."):
        return True
    owner = receiver(op)
    return owner is not None and _plain_object(owner) and called_function(op) is None


def _plain_object(value) -> bool:
    """A value no framework made: not a tensor, an array, a model or a loader (a string,
    a list, a dict)."""
    return value_kind(value) in ("", "unknown", "scalar", "library") and \
        not tensor_valued(value)


def _allocated_before(value, loop) -> bool:
    """Whether `value` names a torch tensor the scope allocates fresh (`torch.zeros(n)`,
    also with a conversion after it: `.long()`) before `loop`, outside it (writing an
    element of a numpy array costs a fraction of a microsecond, not a framework op)."""
    made = producer(value)
    if made is None or made.name != "host.load":
        return False
    store = reaching_definition(value, enclosing_scope(made))
    while store is not None and store.name == "host.call" and \
            string_attr(store, "method") in _CONVERSIONS and receiver(store) is not None:
        store = producer(receiver(store))
    return store is not None and store.name == "host.call" and \
        string_attr(store, "qualname").startswith("torch.") and \
        string_attr(store, "qualname") in catalogue.load().fresh_allocations and \
        not holds(loop, store)


#: tensor methods that convert a fresh allocation into another fresh one
_CONVERSIONS = ("long", "float", "int", "double", "byte", "bool", "half", "to", "cuda")


def _host_reads(loop, var: str, iterable) -> None:
    """HARP401 for the tensor elements `loop` reads on the host, if it reads any."""
    reads = element_reads(loop)
    if reads:
        _report_host_reads(loop, var, iterable, reads)


def _report_host_reads(loop, var: str, iterable, reads) -> None:
    """HARP401 for a loop that reads tensor elements on the host, one per iteration: a
    wait on the device each, where one `.tolist()` before the loop reads them all."""
    read = reads[0]
    _, item, iterated = loop_names(loop)
    tensor = read.operands[0] if read.name == "host.getitem" else iterated
    whole = value_name(tensor) or "the tensor"
    element = _shown_element(read, whole, item)
    ctx = callgraph.per_step(loop, callgraph.training_work)
    where = f", which runs {ctx.phrase(loop)}," if ctx is not None and ctx.chain else ""
    message = (f"{describe_loop(loop)}{where} reads `{whole}` on the host one element at a "
               f"time ({element} as a Python number on every iteration: a wait on the "
               f"device each); convert it once before the loop (`{whole}.tolist()`), or "
               f"express the body as one vectorized op")
    shown = _tensor_assumptions(loop, var, iterable)
    if value_kind(tensor) != "tensor":
        shown.append(Assumption(
            "tensor", whole, "low", "speculated",
            f"`{whole}` is a tensor by what the program passes and returns to it"))
    record_hint(loop, HINT, message, [*shown, *callgraph.loop_run_rate(loop)])


# --- the fix ------------------------------------------------------------------------------

#: element-wise functions (by the name after the framework alias) and tensor methods: on a
#: row of a tensor they compute that row of the function on the whole tensor
ELEMENTWISE_FUNCTIONS = {
    "torch": {"exp", "log", "log1p", "sigmoid", "tanh", "relu", "abs", "sqrt", "rsqrt", "sin",
              "cos", "square", "clamp", "floor", "ceil", "round", "sign", "erf",
              "nn.functional.relu", "nn.functional.sigmoid", "nn.functional.gelu",
              "nn.functional.silu", "nn.functional.softplus", "nn.functional.leaky_relu"},
    "tensorflow": {"exp", "math.exp", "math.log", "math.log1p", "sigmoid", "math.sigmoid",
                   "tanh", "math.tanh", "nn.relu", "nn.sigmoid", "nn.gelu", "nn.silu",
                   "nn.softplus", "abs", "math.abs", "sqrt", "math.sqrt", "square",
                   "math.square", "math.sin", "math.cos", "clip_by_value", "math.floor",
                   "math.round", "math.sign"},
}


ELEMENTWISE_METHODS = {"exp", "log", "log1p", "sigmoid", "tanh", "relu", "abs", "sqrt",
                       "rsqrt", "sin", "cos", "square", "clamp", "floor", "ceil", "round",
                       "sign", "pow", "erf"}


_ELEMENTWISE_OPERATORS = (cst.Add, cst.Subtract, cst.Multiply, cst.Divide, cst.Power,
                          cst.MatrixMultiply)


class _Vectorize(cst.CSTTransformer):
    """Rewrites an element expression into the whole-tensor one: `x[i]` -> `x` (or
    `y[:n]`), the loop element `v` -> the tensor; declines on anything that is not
    element-wise in the visited dimension."""

    def __init__(self, var, whole, tensors, scalars, aliases):
        self.var, self.whole, self.tensors = var, whole, tensors
        self.scalars, self.aliases = scalars, aliases
        self.frameworks: set[str] = set()

    def framework(self) -> str | None:
        """The library of the tensors: from the functions used, else the only import."""
        libraries = self.frameworks or set(self.aliases.values())
        return next(iter(libraries)) if len(libraries) == 1 else None

    def alias(self, library: str) -> str:
        return next(a for a, lib in self.aliases.items() if lib == library)

    def vectorize(self, expr):
        self._check(expr)
        return expr.visit(self)

    def _check(self, node):
        if isinstance(node, (cst.Integer, cst.Float)):
            return
        if isinstance(node, cst.Name):
            if node.value == self.var and isinstance(self.whole, dict):
                raise Decline(f"the loop index `{self.var}` is used as a number")
            if node.value not in self.scalars and not (
                    node.value == self.var and not isinstance(self.whole, dict)):
                raise Decline(f"cannot tell that `{node.value}` is a number or a tensor of "
                              f"fewer dimensions than the tensor visited: it could broadcast "
                              f"differently over the whole tensor")
            return
        if isinstance(node, cst.Subscript):
            if not (isinstance(self.whole, dict) and _element_of(node, self.var) in
                    self.tensors):
                raise Decline(f"`{cst.Module([]).code_for_node(node)}` is not an element "
                              f"`t[{self.var}]` of a tensor the loop visits")
            return
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
            return self._check(node.expression)
        if isinstance(node, cst.BinaryOperation) and \
                isinstance(node.operator, _ELEMENTWISE_OPERATORS):
            if isinstance(node.operator, cst.MatrixMultiply):
                self._check(node.left)
                if not dotted_name(node.right) or \
                        syntax.names([node.right]).loaded & {self.var, *self.tensors}:
                    raise Decline("only `row @ W` with an invariant `W` is vectorized")
                return
            self._check(node.left)
            return self._check(node.right)
        if isinstance(node, cst.Call) and node.args:
            func = dotted_name(node.func)
            head, _, rest = func.partition(".")
            library = self.aliases.get(head)
            if library and rest in ELEMENTWISE_FUNCTIONS[library]:
                self.frameworks.add(library)
                self._check(node.args[0].value)
                for a in node.args[1:]:
                    self._check(a.value)
                return
            if isinstance(node.func, cst.Attribute) and \
                    node.func.attr.value in ELEMENTWISE_METHODS and \
                    not (isinstance(node.func.value, cst.Name) and node.func.value.value
                         in self.aliases):
                self._check(node.func.value)
                for a in node.args:
                    self._check(a.value)
                return
        if isinstance(node, cst.Call) and not node.args and isinstance(
                node.func, cst.Attribute) and node.func.attr.value in ELEMENTWISE_METHODS:
            return self._check(node.func.value)
        raise Decline(f"`{cst.Module([]).code_for_node(node)}` is not known to be "
                      f"element-wise")

    def leave_Subscript(self, original, updated):
        base = original.value.value
        whole = self.whole.get(base) if isinstance(self.whole, dict) else None
        return whole if whole is not None else updated

    def leave_Name(self, original, updated):
        if original.value == self.var and not isinstance(self.whole, dict):
            return self.whole
        return updated


def _element_of(subscript: cst.Subscript, var: str) -> str:
    """`t` for `t[var]` (a name indexed by exactly the loop variable), else ""."""
    index = subscript.slice[0].slice if len(subscript.slice) == 1 else None
    if isinstance(subscript.value, cst.Name) and isinstance(index, cst.Index) and \
            isinstance(index.value, cst.Name) and index.value.value == var:
        return subscript.value.value
    return ""


def _range_bound(loop) -> tuple[cst.BaseExpression, str] | None:
    """For `for i in range(len(x))` / `range(x.shape[0])` / `range(x.size(0))`: the bound
    expression and the tensor it is the length of ("" when it is not one's length)."""
    it = loop.iter
    if not (isinstance(it, cst.Call) and dotted_name(it.func) == "range" and
            len(it.args) == 1 and it.args[0].keyword is None):
        return None
    bound = it.args[0].value
    code = cst.Module([]).code_for_node(bound)
    for form in ("len({})", "{}.shape[0]", "{}.size(0)", "len({}.shape) and {}.shape[0]"):
        for name in syntax.names([bound]).loaded:
            if code == form.format(name, name):
                return bound, name
    return bound, ""


def fix_elementwise_loop(module, positions, hint):
    loop = node_at(positions, hint.span, cst.For)
    if loop.orelse is not None or loop.asynchronous is not None:
        raise Decline("a loop with `else` or `async for` is not rewritten")
    body = loop.body.body
    if not (len(body) == 1 and isinstance(body[0], cst.SimpleStatementLine)
            and len(body[0].body) == 1):
        raise Decline("only a loop body of one statement is vectorized")
    small = body[0].body[0]
    if not isinstance(loop.target, cst.Name):
        raise Decline("the loop target is not a single name")
    var = loop.target.value
    parents = syntax.parents(module)
    loop_stmt, block = syntax.statement_of(loop, parents)
    statements = list(block.body)
    after = [s for s in statements[statements.index(loop_stmt) + 1:]
             if not (isinstance(s, cst.For) and syntax.names([s.target]).loaded == {var}
                     and var not in syntax.names([s.iter]).loaded)]  # rebinds it first
    if var in syntax.names(after).loaded:
        raise Decline(f"`{var}` is read after the loop")
    tensors = {a.subject for a in hint.assumptions if a.kind == "tensor"}
    aliases = {alias: lib for lib in ("torch", "tensorflow")
               if (alias := syntax.module_alias(module, lib))}
    ranged = _range_bound(loop)
    if ranged is not None:
        bound, sized = ranged
        whole = {t: (cst.Name(t) if t == sized else cst.Subscript(cst.Name(t), [
            cst.SubscriptElement(cst.Slice(lower=None, upper=bound))])) for t in tensors}
        n = bound
    elif isinstance(loop.iter, cst.Name) and loop.iter.value in tensors:
        whole, n = loop.iter, cst.Call(cst.Name("len"), [cst.Arg(loop.iter)])
    else:
        raise Decline("only `for i in range(len(x))` or `for v in x` over a tensor is "
                      "vectorized")
    broadcasts = {a.subject for a in hint.assumptions
                  if a.kind == "broadcast" and established(a)}
    vec = _Vectorize(var, whole, tensors, (syntax.number_names(module) | broadcasts) - {var},
                     aliases)
    if isinstance(small, cst.Assign) and len(small.targets) == 1 and \
            isinstance(small.targets[0].target, cst.Subscript) and ranged is not None:
        target = small.targets[0].target
        out = _element_of(target, var)
        if not out:
            raise Decline(f"the loop writes something other than `out[{var}]`")
        if out not in tensors and out in syntax.names([small.value]).loaded:
            raise Decline(f"`{out}` is read in the loop")
        if out not in tensors and not _freshly_allocated(module, loop, out):
            raise Decline(f"`{out}` is not bound once, to new memory (`torch.zeros(...)` "
                          f"and the like): it may share memory with what the loop reads")
        vec.tensors = tensors | {out}
        value = vec.vectorize(small.value)
        new_target = target.with_changes(slice=[cst.SubscriptElement(
            cst.Slice(lower=None, upper=n))])
        new = small.with_changes(targets=[small.targets[0].with_changes(target=new_target)],
                                 value=value)
    elif isinstance(small, cst.Expr) and isinstance(small.value, cst.Call) and \
            isinstance(small.value.func, cst.Attribute) and \
            small.value.func.attr.value == "append" and len(small.value.args) == 1:
        acc = small.value.func.value
        if syntax.names([acc]).loaded & (syntax.names([small.value.args[0]]).loaded | {var}):
            raise Decline("the appended value reads the list it is appended to")
        value = vec.vectorize(small.value.args[0].value)
        if vec.framework() == "tensorflow":  # one op; iterating an EagerTensor is one per row
            unstack = cst.parse_expression(f"{vec.alias('tensorflow')}.unstack(e)")
            value = unstack.with_changes(args=[cst.Arg(value)])
        new = small.with_changes(value=small.value.with_changes(
            func=small.value.func.with_changes(attr=cst.Name("extend")),
            args=[cst.Arg(value)]))
    else:
        new = _vectorized_sum(small, vec)
    if var in syntax.names([new]).loaded and ranged is not None:
        raise Decline(f"the loop index `{var}` is used as a number")
    replacement = body[0].with_changes(body=[new], leading_lines=loop_stmt.leading_lines)
    return module.deep_replace(loop_stmt, replacement)


def _freshly_allocated(module, loop, name: str) -> bool:
    """Whether `name` is bound once in the loop's scope, by `name = f(...)` with `f` a
    catalogued fresh allocation (libcst's scope and qualified-name analyses)."""
    scope = syntax.scopes(module).get(loop)
    assignments = list(scope.assignments[name]) if scope is not None else []
    if len(assignments) != 1:
        return False
    parents = syntax.parents(module)
    target = getattr(assignments[0], "node", None)
    assign = parents.get(parents.get(target))
    if not (isinstance(assign, cst.Assign) and len(assign.targets) == 1 and
            assign.targets[0].target is target and isinstance(assign.value, cst.Call)):
        return False
    names = {q.name for q in scope.get_qualified_names_for(assign.value.func)}
    return bool(names & catalogue.load().fresh_allocations)


def _vectorized_sum(small, vec):
    """`acc += e(x[i])` / `acc = acc + e(x[i])` -> one reduction over the visited dim."""
    if isinstance(small, cst.AugAssign) and isinstance(small.operator, cst.AddAssign) and \
            isinstance(small.target, cst.Name):
        acc, term = small.target.value, small.value
    elif isinstance(small, cst.Assign) and len(small.targets) == 1 and \
            isinstance(small.targets[0].target, cst.Name) and \
            isinstance(small.value, cst.BinaryOperation) and \
            isinstance(small.value.operator, cst.Add) and \
            isinstance(small.value.left, cst.Name) and \
            small.value.left.value == small.targets[0].target.value:
        acc, term = small.value.left.value, small.value.right
    else:
        raise Decline("only `out[i] = e(x[i])`, `acc.append(e(x[i]))` and `acc += e(x[i])` "
                      "are vectorized")
    if acc in syntax.names([term]).loaded:
        raise Decline(f"each term reads `{acc}`: the iterations depend on each other")
    unproved(f"the tensor is not empty and not of an integer dtype (an empty one leaves "
             f"`{acc}` as it was, not a tensor; an integer sum promotes to int64)")
    value = vec.vectorize(term)
    library = vec.framework()
    if library is None:
        raise Decline("cannot tell whether the tensor is a torch or a TensorFlow tensor")
    if library == "tensorflow":
        total = cst.parse_expression(f"{vec.alias(library)}.reduce_sum(e, axis=0)")
        total = total.with_changes(args=[cst.Arg(value), *total.args[1:]])
    else:
        if not isinstance(value, (cst.Name, cst.Attribute, cst.Subscript, cst.Call)):
            value = value.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
        total = cst.Call(cst.Attribute(value, cst.Name("sum")), [cst.Arg(cst.Integer("0"))])
    if isinstance(small, cst.AugAssign):
        return small.with_changes(value=total)
    return small.with_changes(value=small.value.with_changes(right=total))


RULE = Rule(
    flag="harp-elementwise-loop",
    summary="Find Python loops over tensor elements (HARP401)",
    run=run,
    hint=HintSpec(
        id="HARP401",
        name="elementwise-python-loop",
        finds="a Python loop over tensor indices or elements doing per-element tensor ops, or "
              "reading each element of a tensor on the host (`t[i].item()`, `int(v)`, a "
              "tensor element as an index or a slice bound), or a recurrence over a "
              "tensor's elements (a discounted return or GAE computed step by step), or "
              "calling a function of the program that runs tensor ops and keeps no state "
              "on one element per iteration (an attention scoring each encoder output), or "
              "building a loss one element at a time from an episode's per-step tensors (a "
              "list of log-probabilities or values the acting loop appended)",
        why="each element costs a Python iteration and one or more small op launches, where one "
            "op over the tensor does the same work at once",
        refactoring="the vectorized op (a recurrence: the same arithmetic on host numbers, "
                    "converted once before and after the loop, or a vectorized scan)",
        before="for i in range(len(x)):\n"
               "    out[i] = x[i] * 2 + 1\n",
        after="out[:len(x)] = x * 2 + 1\n",
        assumptions=("tensor", "pure", "independent-iterations", "broadcast", "hot-loop",
                     "every-iteration", "step-share"),
    ),
    fix=Fix(
        apply=fix_elementwise_loop,
        summary="safe (element-wise bodies of one statement)",
        rewrite="a one-statement loop over `range(len(x))` or over a tensor, `out[i] = e(x[i])`,"
                " `acc.append(e(x[i]))` or `acc += e(x[i])`, becomes `out[:len(x)] = e(x)`, "
                "`acc.extend(e(x))` or one sum over the first dimension (the sum is "
                "`--unsafe-fixes`: an empty tensor leaves `acc` a number, an integer sum "
                "promotes to int64); `e` is element-wise ops, listed element-wise functions and "
                "`row @ W`",
        declines="the index is used as a number, an operand may be a tensor of another shape "
                 "(one whose rank is not proved below the visited tensor's), an"
                 " element depends on another, `out` is not bound once to new memory (a "
                 "catalogued allocation such as `torch.zeros`: it could share memory with the "
                 "input); a loop that reads elements on the host (its fix, one `.tolist()` "
                 "before the loop, changes how the body reads them: written by hand)",
    ),
)
