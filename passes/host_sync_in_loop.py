"""--harp-host-sync-in-loop (HARP201): a tensor turned into a host value inside a loop.

Finds: ops whose effect is `sync` (from the API catalogue: `Tensor.item`, `.cpu()`,
`.tolist()`, TF's `.numpy()`, not torch's `.numpy()`, which only works on a CPU tensor and
waits for nothing; from the frontend: `float(t)`/`int(t)`/`bool(t)` and `host.truth` of a
tensor condition) nested in a `host.for` or `host.while` of the same scope, or run on
every call of a helper without loops or model work that a loop calls (`to_np(x)`: the wait
is where the helper is called). One problem is one hint: in `t.cpu().item()` only the first
sync waits.

How: every such op blocks the host until the device has produced the value, so the loop
cannot run ahead of the device. The frontend decided which values are tensors; this pass
reads the effects and facts recorded on the IR and the shared facts of analysis.py: how
often the statement runs (a guard such as `step % 100 == 0`), whether the file can use an
accelerator at all, and whether the value only feeds a print or a logger.

Assumes: the value is a tensor (proved or speculated, as the frontend recorded), the
loop runs more than once, and the benefit needs an asynchronous device. High-risk
speculations, shown only at the aggressive level: a sync that waits once per iteration
of the loop that runs the model (removing one wait a step gains only the overlap of host
and device work, a few percent of a step: blind readings of real programs judged such
syncs small), not once per element or parameter; a sync in a loop that also runs an
inner loop (an epoch loop), one under a periodic guard, one in a loop that waits every
iteration anyway (a remote call, a generation, a pause), one in a file that never places a
tensor on an accelerator, one in a loop that runs no model or training step (over
parameters or plots), one whose value only feeds logging (removing it would drop the
output), and one whose value the loop uses on the host (a branch, an index, a call).
"""

from __future__ import annotations

import libcst as cst

from harp_ir import callgraph, catalogue, device
from harp_ir.analysis import (
    Assumption,
    accelerator,
    branches,
    call_arguments,
    call_text,
    called_function,
    calls_of,
    describe_loop,
    does_model_work,
    element_reads,
    enclosing_loop,
    enclosing_scope,
    few_iterations,
    frequency,
    loop_element,
    loop_runs,
    model_work_call,
    on_cpu,
    over_parameters,
    paced,
    producer,
    receiver,
    record_hint,
    runs_inner_loop,
    same_op,
    span,
    string_attr,
    tensor_valued,
    user,
    value_name,
    value_uses,
    walk,
)
from harp_ir.codemods import Decline, node_at, syntax, unproved
from harp_ir.rules import Fix, HintSpec, Rule

HINT = "HARP201"
_SYNC_OPS = ("host.call", "host.truth")


def _subject(op) -> str:
    return string_attr(op, "harp.receiver") or "the value"


def _message(op, loop, how_often: str, logging: bool) -> str:
    subject = _subject(op)
    if _barrier(op):
        return (f"`{string_attr(op, 'qualname')}()` waits for all the work queued on the "
                f"device {how_often}; synchronize only where a measurement or a transfer "
                f"needs it")
    if op.name == "host.truth":
        return (f"the condition `{subject}` is a tensor: testing it copies it to the host and "
                f"waits for the device {how_often}; test it on the device "
                f"less often (every N steps) or once after the loop")
    if logging:
        return (f"{call_text(op)} copies `{subject}` to the host and waits for the device "
                f"{how_often}, only to print or log it; log less often, or keep the "
                f"values on the device and convert them when you log")
    return (f"{call_text(op)} copies `{subject}` to the host and waits for the device "
            f"{how_often}; keep it on the device (accumulate with tensor ops) and "
            f"convert once after the loop")


def _barrier(op) -> bool:
    """A sync that copies no value, only waits (`torch.cuda.synchronize()`)."""
    return op.name == "host.call" and not string_attr(op, "harp.receiver") and \
        not call_arguments(op) and string_attr(op, "qualname").endswith(".synchronize")


def _is_sync(op) -> bool:
    return op.name in _SYNC_OPS and string_attr(op, "effect") == "sync"


def _no_wait(op) -> bool:
    """Whether the converted tensor is on the host already: the result of another sync
    (`t.cpu().item()`: only the first one waits) or of a factory that made it on the CPU
    (`torch.randint(0, n, (1,)).item()`, `int(k)` of an element of a batch's field)."""
    if string_attr(op, "method"):
        recv = receiver(op)
    else:  # `int(t)`, `float(t)`
        given = [v for k, v in call_arguments(op) if not k]
        recv = given[0] if len(given) == 1 else None
    if recv is None:
        return False
    made = producer(recv)
    return (made is not None and _is_sync(made)) or on_cpu(recv)


def _element_of_loop(op, loop) -> bool:
    """Whether the sync reads an element of a tensor the loop visits one per iteration
    (`values[i].item()`): HARP401 reports the loop, whose fix is one `.tolist()`."""
    recv = receiver(op) if string_attr(op, "method") else \
        (op.operands[1] if op.name == "host.call" and len(op.operands) > 1 else None)
    made = producer(recv) if recv is not None else None
    return made is not None and any(same_op(made, r) for r in element_reads(loop))


def _passes_element(call, loop) -> bool:
    """Whether a helper's call passes it an element of a tensor the loop visits
    (`np_now(out[k])`): HARP401 reports the loop, as for a sync of the element itself."""
    return any(loop_element(v, loop) for _, v in call_arguments(call))


def _synced_anyway(op, loop) -> bool:
    """Whether another sync of the same value runs on every iteration of `loop` for a use
    that needs it on the host (a print every step, a branch): removing this one then saves
    no wait."""
    subject = string_attr(op, "harp.receiver")
    if not subject:
        return False
    for other in walk(loop):
        if other == op or not _is_sync(other) or other.name != "host.call" or \
                string_attr(other, "harp.receiver") != subject or \
                frequency(other, loop).kind != "always" or \
                not same_op(enclosing_loop(other), loop):
            continue
        if value_uses(other.result, enclosing_scope(other)) - {"accumulate"}:
            return True
    return False


def _helper_call(op):
    """(the call, its loop) when `op` runs unconditionally in a function without loops,
    models or calls of the program's functions, that the program calls in a loop
    (`to_np(x)`, `return x.data.cpu().numpy()`, called for each parameter of a histogram
    loop): the sync waits where the helper is called.
    The call in a loop that runs per step and visits elements comes first, then one in a
    loop that runs the model, each on every iteration first; None when no call is in a
    loop."""
    func = enclosing_scope(op)
    if func.name != "host.func" or branches(op, func) or \
            any(model_work_call(o) for o in walk(func)):
        return None  # a step function (`loss.backward(); return loss.item()`) is its loop's
    sites = [(c, loop) for c in calls_of(func) if (loop := enclosing_loop(c)) is not None
             and not same_op(enclosing_scope(c), func)]
    sites.sort(key=lambda s: (does_model_work(s[1], besides=func) or _per_step(s[1]) is None,
                              not does_model_work(s[1], besides=func),
                              callgraph.RANK.index(frequency(s[0], s[1]).kind)))
    return sites[0] if sites else None


def _returned(op) -> bool:
    """Whether the helper returns what the sync makes and does nothing else with it
    (`return x.data.cpu().numpy()`, through tensor and host computation on the way)."""
    value, seen = op.result, 0
    while seen < 12:
        users = [user(u) for u in value.uses]
        if len(users) != 1:
            return False
        nxt = users[0]
        if nxt.name == "hostcf.return":
            return True
        if nxt.name not in ("host.binop", "host.unop", "host.getitem", "host.getattr") and \
                not (nxt.name == "host.call" and
                     string_attr(nxt, "effect") in ("pure", "view", "sync")):
            return False
        value, seen = nxt.result, seen + 1
    return False


def _calls_in(loop, site) -> list:
    """The calls of the function `site` calls that `loop` makes (`to_np(value)` and
    `to_np(value.grad)` in one histogram loop), `site` first."""
    func = called_function(site)
    others = [c for c in walk(loop) if c.name == "host.call" and not same_op(c, site) and
              func is not None and same_op(called_function(c), func)]
    return [site, *others]


def run(module, pass_=None) -> None:
    for op in walk(module):
        if not _is_sync(op) or _no_wait(op):
            continue
        loop, site = enclosing_loop(op), op  # site: where the loop runs it
        if loop is None and (called := _helper_call(op)) is not None:
            site, loop = called
        if loop is None or _element_of_loop(op, loop) or \
                not same_op(site, op) and _passes_element(site, loop):
            continue
        subject = _subject(op)
        reason = string_attr(op, "harp.receiver_reason")
        assumptions = [
            Assumption("tensor", subject, "medium" if reason else "low",
                       "speculated" if reason else "proved", reason),
            loop_runs(loop),
            accelerator(op),
        ]
        how_often = frequency(site, loop)
        if how_often.assumption(loop):
            assumptions.append(how_often.assumption(loop))
        phrase = how_often.phrase(loop)
        if not same_op(site, op):
            phrase += f" through `{callgraph.function_name(enclosing_scope(op))}`"
        # the helper's own call does not make its loop one that runs a model
        model_loop = does_model_work(
            loop, besides=None if same_op(site, op) else enclosing_scope(op))
        step = _per_step(loop) if not model_loop else None
        if step is not None:  # `for p in params:` in a clipping helper each step calls
            phrase += f", which runs {step.phrase(site)}"
            assumptions += step.frequency_assumptions()
        elif not model_loop:
            assumptions.append(Assumption(
                "hot-loop", describe_loop(loop), "high", "speculated",
                "an iteration runs no model, training step or batch (a loop over "
                "parameters, plots or a few results)"))
        elif runs_inner_loop(loop, site):
            assumptions.append(Assumption(
                "hot-loop", describe_loop(loop), "high", "speculated",
                "the loop also runs an inner loop, so it may run only a few times "
                "(once per epoch)"))
        elif not _per_element(loop):  # one wait per step, not one per element
            assumptions.append(Assumption(
                "step-share", describe_loop(loop), "high", "speculated",
                "it waits once per iteration of the loop that runs the model: removing it "
                "gains only the overlap of the device's work with the host's work for the "
                "next iteration, a few percent of a step unless launching kernels from the "
                "host takes as long as running them"))
        evaluation = callgraph.evaluation_pass(loop)
        if evaluation:  # a test loop once per epoch, not the program's main loop
            assumptions.append(evaluation)
        waiting = paced(op)
        if waiting is not None:  # `out = model(x)` over RPC, `model.generate(...)`
            assumptions.append(waiting)
        uses = value_uses(op.result, enclosing_scope(op)) if op.name == "host.call" \
            else {"host"}
        if not same_op(site, op) and _returned(op):  # what the caller does with it
            uses = value_uses(site.result, enclosing_scope(site))
        logging = "output" in uses and "host" not in uses  # printed on every step
        if logging:
            assumptions.append(Assumption(
                "logging-cost", subject, "high", "speculated",
                "the value only feeds a print, a logger or a plot: the output needs it"))
        elif "host" in uses:
            assumptions.append(Assumption(
                "accumulated-only", subject, "high", "speculated",
                "the loop uses the value on the host (a branch, an index, a call), so it "
                "must be copied there"))
        elif "host-math" in uses:
            assumptions.append(Assumption(
                "accumulated-only", subject, "high", "speculated",
                "the value goes through `math` or NumPy functions on the host before it is "
                "accumulated: keeping it on the device means rewriting them as tensor ops"))
        elif _synced_anyway(op, loop):
            assumptions.append(Assumption(
                "accumulated-only", subject, "high", "speculated",
                f"`{subject}` is copied to the host on each iteration anyway, by another "
                f"sync the loop needs"))
        waits = _waits_anyway(op, loop)
        if waits is not None:
            assumptions.append(waits)
        record_hint(op, HINT, _message(op, loop, phrase, logging), assumptions,
                    related=[] if same_op(site, op) else _calls_in(loop, site))


def _per_element(loop) -> bool:
    """Whether `loop` visits the elements of a tensor (`for i, y in enumerate(labels)`)
    or a model's parameters: a sync in its body waits once per element, many times for
    each time the code around the loop runs."""
    if loop.name != "host.for":
        return False
    if over_parameters(loop):
        return True
    iterable = loop.operands[0]
    made = producer(iterable)
    if made is not None and made.name == "host.call" and \
            string_attr(made, "qualname") in ("builtins.enumerate", "builtins.zip"):
        return any(tensor_valued(v) for _, v in call_arguments(made))
    return tensor_valued(iterable)


def _waits_anyway(op, loop) -> Assumption | None:
    """The high-risk speculation that removing the sync gains something, when every
    iteration of `loop` waits for the device elsewhere anyway: at a blocking copy of a
    host tensor to the device (a copy from pageable memory waits for the work queued
    before it), or at another sync whose value the host needs there (a branch, an index,
    a print)."""
    copy = device.blocking_copy(loop)
    if copy is not None and copy.name == "host.getitem":
        what = f"`{value_name(copy.operands[0]) or 'the tensor'}[...]`, indexed by NumPy indices"
        why = ("PyTorch copies the indices to the device, and a copy from pageable host memory "
               "waits for the work queued before it; indices made on the device "
               "(`torch.randperm(n, device=...)`) would remove both waits")
    elif copy is not None:
        what = f"`{string_attr(copy, 'harp.receiver') or 'the batch'}." \
               f"{string_attr(copy, 'method')}(...)`"
        why = ("a copy from pageable host memory waits for the work queued before it; "
               "pinned memory (`pin_memory=True`) and `non_blocking=True` would remove both "
               "waits")
    elif (copy := _adjacent_wait(op, after=False)) is not None:
        what, why = call_text(copy), ("nothing reaches the device between the two, so this one "
                                  "only copies")
    elif (copy := _adjacent_wait(op, after=True)) is not None:
        what, why = call_text(copy), ("nothing reaches the device between the two, so removing "
                                  "this one alone moves the wait there")
    else:
        copy = device.in_every_iteration(loop, lambda o: not same_op(o, op) and _needed(o))
        if copy is None:
            return None
        what, why = call_text(copy), "the host needs that value there"
    where = span(copy.location)
    return Assumption(
        "only-wait", describe_loop(loop), "high", "speculated",
        f"each iteration already waits for the device at {what}"
        f"{f' (line {where.line})' if where else ''}, so this sync alone adds little: {why}")


def _adjacent_wait(op, after: bool):
    """A sync next to `op` in the same straight-line code, with nothing queued on the
    device between them: before it (`rgbs.append(rgb.cpu().numpy())` then
    `disps.append(disp.cpu().numpy())`: that one waited for all the work, so `op` finds the
    device idle), or after it (`losses.append(loss.item())` then `accs.append(acc.item())`:
    that one waits for the same work, so removing `op` alone only moves the wait there).
    None when there is none, or when anything that may run device work (a tensor op, a
    model, a function of the program) comes between."""
    block = [o.operation for o in op.block.operations]
    at = next(i for i, o in enumerate(block) if same_op(o, op))
    for other in block[at + 1:] if after else reversed(block[:at]):
        if _is_sync(other) and not _no_wait(other):
            return other
        if any(_may_queue_work(o) for o in (other, *walk(other))):
            return None
    return None


#: calls that only touch host objects: they queue nothing on a device
_HOST_ONLY = ("builtins.", "numpy.", "math.", "time.", "logging.", "random.")


def _may_queue_work(op) -> bool:
    """Whether `op` may queue work on the device: any call but a sync, a view (`.numpy()`
    of what a sync copied, `.view(...)`: no kernel), one of Python's, NumPy's or the
    standard library's, a print, or a change of a container."""
    if op.name != "host.call" or _is_sync(op):
        return False
    if string_attr(op, "qualname").startswith(_HOST_ONLY) or \
            string_attr(op, "effect") in ("io", "view"):
        return False
    return string_attr(op, "method") not in catalogue.load().container_mutators


def _needed(op) -> bool:
    """A sync whose value the host uses where it is made (a branch, an index, a call, a
    print): it stays whatever else is fixed."""
    if not _is_sync(op) or _no_wait(op) or op.name != "host.call":
        return False
    return bool(value_uses(op.result, enclosing_scope(op)) & {"host", "output"})


def _per_step(loop):
    """The context in which a training loop runs `loop` on its iterations: around it in
    the same function (`for p in model.parameters()` after each `opt.step()`), or through
    calls (`grad_clipping(grads)` after each backward, `_log_grad_norm()` from
    `optimize()` from `run_step()`): then every iteration of `loop` runs on those steps,
    whatever it visits. None when no training loop does, or when `loop` itself runs a
    handful of iterations (`for k in range(2)`: hardly more waits than one a step)."""
    if few_iterations(loop):
        return None
    found = [c for c in callgraph.contexts(loop) if not same_op(c.loop, loop) and
             c.how_often.kind in ("always", "conditional") and
             (does_model_work(c.loop, strict=True) or callgraph.training_work(c.loop)) and
             not few_iterations(c.loop)]
    found.sort(key=lambda c: (c.how_often.kind != "always", len(c.chain)))
    return found[0] if found else None


# --- the fix ------------------------------------------------------------------------------

def fix_host_sync(module, positions, hint):
    """`total += t.item()` -> `total += t.detach().double()` in the loop and one `.item()`
    after it. The accumulator keeps Python's arithmetic: a float starting value sums in
    float64 as a Python float does; an int one sums an integer count in int64."""
    call = node_at(positions, hint.span, cst.Call)
    parents = syntax.parents(module)
    copied = _copied_to_numpy(call, parents)
    if copied is not None:  # `total += t.cpu().numpy()`: the chain, from its first sync
        call = copied
    stmt, small, block, loop = syntax.loop_body_statement(call, parents)
    appended = _appended_item(call, parents)
    if appended is not None:
        return _fix_appended(module, call, parents, appended)
    converted = isinstance(call.func, cst.Name) and call.func.value in ("int", "float") and \
        len(call.args) == 1 and call.args[0].keyword is None and call.args[0].star == ""
    if not (isinstance(small, cst.AugAssign) and isinstance(small.operator, cst.AddAssign)
            and isinstance(small.target, cst.Name) and small.value is call and (
                converted or isinstance(call.func, cst.Attribute) and not call.args)):
        raise Decline("only `total += t.item()` / `total += t.numpy()` / `total += float(t)` "
                      "directly in the loop body is rewritten")
    if converted:  # `int(t)` / `float(t)` of a one-element tensor: as `t.item()` does
        if syntax.module_alias(module, "torch") is None:
            raise Decline(f"`{call.func.value}(t)` accumulation is rewritten for PyTorch "
                          f"tensors (`torch` imported at module level)")
        method, total = "item", small.target.value
        receiver = call.args[0].value
        if call.func.value == "int" and not _counts_matches(receiver):
            raise Decline("`int(t)` truncates a floating tensor, which a sum on the device "
                          "would not: only a count (`(a == b).sum()`) is rewritten")
    else:
        method, total = call.func.attr.value, small.target.value
        receiver = call.func.value
    library = {"item": "torch", "numpy": "torch" if copied else "tensorflow"}.get(method)
    alias = syntax.module_alias(module, library) if library else None
    if alias is None:
        raise Decline(f"`.{method}()` accumulation needs `{library or 'torch'}` imported at "
                      f"module level")
    _only_here(module, stmt, block, loop, parents, total, "it must stay a number")
    start = _starting_number(block, loop, parents, total)
    if method == "item":
        on_device = cst.Call(cst.Attribute(receiver, cst.Name("detach")))
        if start == "float":
            on_device = cst.Call(cst.Attribute(on_device, cst.Name("double")))
        elif _counts_matches(receiver):
            on_device = cst.Call(cst.Attribute(on_device, cst.Name("long")))
        else:
            raise Decline(f"`{total}` starts as an int and the tensor's dtype is not known: "
                          f"a tensor would accumulate in its own dtype (a float wouldn't "
                          f"become a float64, a uint8 would wrap)")
    elif copied is not None:  # `t.cpu().numpy()` of a PyTorch tensor: sum it where it is
        on_device = cst.Call(cst.Attribute(receiver.func.value, cst.Name("detach")))
        unproved(f"`{total}` may end a 0-d array rather than a NumPy scalar, and NumPy "
                 f"promotes a sum of host arrays by its own rules (a tensor sums in its dtype)")
    else:
        on_device = receiver
        unproved(f"`{module.code_for_node(receiver)}` is a floating tensor (an integer one "
                 f"cannot be added to `{total}` as a tensor)")
    back = "item" if method == "item" else "numpy"
    if copied is not None:
        back = "cpu().numpy"
    return _then_after_loop(module, loop, parents, loop.deep_replace(call, on_device),
                            f"{total} = {total}.{back}() if {alias}.is_tensor({total}) "
                            f"else {total}\n")


def _copied_to_numpy(call, parents):
    """The `.numpy()` call of `t.cpu().numpy()` when `call` is its `t.cpu()` (the hint's
    place, the chain's first sync); else None."""
    if not (isinstance(call.func, cst.Attribute) and call.func.attr.value == "cpu" and
            not call.args):
        return None
    attribute = parents.get(call)
    outer = parents.get(attribute)
    if isinstance(attribute, cst.Attribute) and attribute.attr.value == "numpy" and \
            isinstance(outer, cst.Call) and outer.func is attribute and not outer.args:
        return outer
    return None


def _only_here(module, stmt, block, loop, parents, name: str, why: str) -> None:
    """Declines unless `stmt` is the only statement of the loop body that uses `name` and
    nothing else can see `name` while the loop runs (see `keeps_running_value`)."""
    others = [s for s in block.body if s is not stmt]
    if name in syntax.names(others).loaded or name in syntax.names(others).stored:
        raise Decline(f"`{name}` is used elsewhere in the loop, so {why}")
    syntax.keeps_running_value(module, loop, parents, name)


def _then_after_loop(module, loop, parents, new_loop, after: str):
    """The module with `loop` replaced by `new_loop` and the statement `after` (one line
    of source) run right after it."""
    loop_stmt, _ = syntax.statement_of(loop, parents)
    new_stmt = loop_stmt.deep_replace(loop, new_loop) if loop_stmt is not loop else new_loop
    return module.deep_replace(loop_stmt, cst.FlattenSentinel([new_stmt,
                                                               cst.parse_statement(after)]))


def _appended_item(call, parents):
    """`acc.append(t.item())`, one statement directly in a loop body: (the line, the body,
    the loop, `acc`); else None."""
    if not (isinstance(call.func, cst.Attribute) and call.func.attr.value == "item" and
            not call.args):
        return None
    append = parents.get(parents.get(call))  # the Arg, then the append call
    if not (isinstance(append, cst.Call) and isinstance(append.func, cst.Attribute) and
            append.func.attr.value == "append" and isinstance(append.func.value, cst.Name)
            and len(append.args) == 1 and append.args[0].value is call):
        return None
    stmt, small, block, loop = syntax.loop_body_statement(append, parents)
    if small is None or not isinstance(small, cst.Expr):
        return None
    return stmt, block, loop, append.func.value.value


def _fix_appended(module, call, parents, appended):
    """`acc.append(t.item())` -> `acc.append(t.detach().reshape(()))` in the loop (a
    one-element tensor kept on the device: `reshape(())` fails where `.item()` would, on
    more than one element) and `acc[:] = [v.item() for v in acc]` after it: the host
    waits once, after the loop's work, and every element is the number `.item()` gave."""
    stmt, block, loop, name = appended
    alias = syntax.module_alias(module, "torch")
    if alias is None:
        raise Decline("`.item()` appends are rewritten for PyTorch tensors (`torch` imported "
                      "at module level)")
    _only_here(module, stmt, block, loop, parents, name, "its elements must stay numbers")
    _starting_empty_list(loop, parents, name)
    kept = cst.Call(cst.Attribute(cst.Call(cst.Attribute(call.func.value, cst.Name("detach"))),
                                  cst.Name("reshape")), args=[cst.Arg(cst.Tuple([]))])
    return _then_after_loop(module, loop, parents, loop.deep_replace(call, kept),
                            f"{name}[:] = [value.item() for value in {name}]\n")


def _starting_empty_list(loop, parents, name: str) -> None:
    """Declines unless `name = []` runs in the statements just before the loop, with no
    other use of `name` between them (an alias made there would keep the tensors)."""
    stmt, outer = syntax.statement_of(loop, parents)
    body = list(outer.body)
    for before in reversed(body[:body.index(stmt)]):
        used = syntax.names([before])
        if name not in used.stored:
            if name in used.loaded:
                break
            continue
        small = before.body[0] if isinstance(before, cst.SimpleStatementLine) and \
            len(before.body) == 1 else None
        if isinstance(small, cst.Assign) and len(small.targets) == 1 and \
                isinstance(small.targets[0].target, cst.Name) and \
                isinstance(small.value, cst.List) and not small.value.elements:
            return
        break
    raise Decline(f"`{name}` is not set to `[]` just before the loop (with no other use in "
                  f"between): its earlier elements or an alias would see tensors")


def _starting_number(block, loop, parents, name: str) -> str:
    """"float" or "int": the literal `name` is bound to just before the loop, in the same
    block (`total = 0.0`) or before an enclosing (epoch) loop that changes it only by
    resets to a literal of the same kind; declines otherwise (its type would not be
    known)."""
    node, before, between = loop, [], []
    while True:  # the statements run before the loop: its block's, then the enclosing ones
        stmt, outer = syntax.statement_of(node, parents)
        body = list(outer.body)
        before = body[:body.index(stmt)] + before
        wrapper = parents.get(outer)
        if any(name in syntax.names([s]).stored for s in before):
            break
        if isinstance(wrapper, (cst.For, cst.While)) and wrapper.body is outer and \
                name not in syntax.names([getattr(wrapper, "target", cst.Name("_"))]).stored:
            # an outer (epoch) loop: the sum is converted back after each run of the inner
            # loop, so between runs it is a number again; only a reset may change it there
            between += body[body.index(stmt) + 1:]
            before = []
        elif not isinstance(wrapper, (cst.With, cst.If, cst.Try)):
            break
        node = wrapper
    for stmt in reversed(before):
        if name not in syntax.names([stmt]).stored:
            continue
        kind = _literal_kind(_assigned_value(stmt, name))
        if kind is None:
            break
        changed = next((s for s in between if name in syntax.names([s]).stored and
                        _literal_kind(_assigned_value(s, name)) != kind), None)
        if changed is not None:
            raise Decline(f"`{name}` is changed between runs of the loop, in an enclosing "
                          f"loop, other than by a reset to a {kind} literal: the rewrite "
                          f"could not keep its type")
        return kind
    raise Decline(f"`{name}` is not set to a number literal just before the loop: the "
                  f"rewrite could not keep its type")


def _assigned_value(stmt, name: str):
    """The expression `stmt` assigns to `name` when it is one simple assignment (`name =
    v`, or `name` in a tuple unpacking of a tuple display, `total, n = 0., 0`), else None."""
    small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and \
        len(stmt.body) == 1 else None
    target = small.targets[0].target if isinstance(small, cst.Assign) and \
        len(small.targets) == 1 else None
    if isinstance(target, cst.Name):
        return small.value if target.value == name else None
    if isinstance(target, cst.Tuple) and isinstance(small.value, cst.Tuple) and \
            len(target.elements) == len(small.value.elements):
        return next((v.value for t, v in zip(target.elements, small.value.elements,
                                             strict=True)
                     if isinstance(t.value, cst.Name) and t.value.value == name), None)
    return None


def _literal_kind(value) -> str | None:
    """"float" or "int" for a number literal (signed or not), else None."""
    if isinstance(value, cst.UnaryOperation):
        value = value.expression
    if isinstance(value, cst.Float):
        return "float"
    if isinstance(value, cst.Integer):
        return "int"
    return None


def _counts_matches(expr) -> bool:
    """`(a == b).sum()` / `a.eq(b).sum()`: an integer count (int64 in torch)."""
    if not (isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute)
            and expr.func.attr.value == "sum" and not expr.args):
        return False
    inner = expr.func.value
    if isinstance(inner, cst.Comparison):
        return True
    return isinstance(inner, cst.Call) and isinstance(inner.func, cst.Attribute) and \
        inner.func.attr.value in ("eq", "ne", "lt", "le", "gt", "ge")


def _hot_loop_risk(hint) -> str:
    """A sync in an outer (once-per-epoch) loop is not worth a rewrite by default."""
    return "unsafe" if any(a.kind == "hot-loop" for a in hint.assumptions) else "safe"


RULE = Rule(
    flag="harp-host-sync-in-loop",
    summary="Find tensors synced to the host inside loops (HARP201)",
    run=run,
    hint=HintSpec(
        id="HARP201",
        name="host-sync-in-loop",
        finds="a tensor converted to a host value inside a loop (`.item()`, `.numpy()`, "
              "`.cpu()`, `.tolist()`, `float(t)`/`int(t)`/`bool(t)`, a tensor as an `if`/`while`"
              " condition): at the default level, a wait repeated within each step (once per "
              "parameter or element of a loop the step runs); one wait per step only at the "
              "aggressive level",
        why="the host waits for the device to finish every queued op before it can read the "
            "value, so the device idles between steps; waits repeated within a step add up, "
            "one wait a step costs only the overlap of host and device work",
        refactoring="keep the value on the device (accumulate with tensor ops) and sync once "
                    "after the loop",
        before="for x, y in loader:\n"
               "    loss = step(x, y)\n"
               "    for p in model.parameters():\n"
               "        norms += p.grad.norm().item()\n",
        after="for x, y in loader:\n"
              "    loss = step(x, y)\n"
              "    for p in model.parameters():\n"
              "        norms += p.grad.norm().detach().double()\n"
              "    norms = norms.item()\n",
        assumptions=("tensor", "loop-runs", "hot-loop", "accelerator", "every-iteration",
                     "logging-cost", "accumulated-only", "only-wait", "step-share"),
    ),
    fix=Fix(
        apply=fix_host_sync,
        summary="safe (unsafe in an epoch loop)",
        rewrite="`total += t.item()` (or `float(t)`, or `int(t)` of a count) accumulates on the "
                "device as `t.detach().double()` (a float start: float64, as a Python float "
                "sums) or `.long()` (an int start counting matches, `(a == b).sum()`), "
                "converting once after the loop; the start may be set by an unpacking "
                "(`total, correct = 0., 0`), or before an epoch loop around the loop that "
                "only resets it to a literal of the same kind (converted after each run); "
                "TF's `total += t.numpy()` is `--unsafe-fixes` (an integer tensor cannot be "
                "added as a tensor), and so is PyTorch's `total += t.cpu().numpy()`, summed "
                "as `t.detach()` (NumPy's promotion of the host sum, and the result's type, a "
                "0-d array, are not proved the same); `acc.append(t.item())` keeps "
                "`t.detach().reshape(())` and converts the list once after the loop "
                "(`acc[:] = [v.item() for v in acc]`), when `acc = []` just before the loop",
        declines="`total` is read inside the loop, by a function or closure (libcst's scope "
                 "analysis), or by an `except`/`finally` the loop can raise into; the loop can "
                 "`return`/`yield`; `total` is not set to a number literal before the loop (a "
                 "list: to `[]`, with no alias made before the loop), or an epoch loop around "
                 "it changes it other than by such a reset; an "
                 "int start with a tensor of unknown dtype; `int(t)` of a floating tensor "
                 "(it truncates each value)",
        safety=_hot_loop_risk,
        unsafe_because="the loop looks like an outer, once-per-epoch loop",
    ),
)
