"""Where the host waits for the device: tensors in host memory, and the copies of them to
the device that block.

A copy from pageable host memory to a CUDA device (`x.cuda()`, `x.to(device)` without
`non_blocking=True`) is synchronous for the host: CUDA first waits for the work already
queued on the stream. So is indexing a device tensor with a NumPy array of indices
(`b_obs[mb_inds]` in a PPO minibatch loop): PyTorch copies the indices to the device the
same way. A loop that copies its batch that way on every iteration therefore
waits for the device once per iteration whatever else it does, and a `.item()` beside it
adds little: the rules that count waits ask these questions instead of their own patterns.
"""

from __future__ import annotations

from torch_mlir import ir

from harp_ir.analysis import (
    call_arguments,
    called_function,
    constant_value,
    enclosing_loop,
    enclosing_scope,
    frequency,
    is_parameter,
    loader_batch_place,
    names_device,
    on_cpu,
    passed_arguments,
    per_run,
    producer,
    reaching_store,
    receiver,
    same_op,
    stored_once,
    string_attr,
    walk,
)

#: calls that wrap host data as a tensor in host memory (their first argument a NumPy
#: array, a list, or a tensor already on the host)
_HOST_WRAPPERS = frozenset({
    "torch.from_numpy", "torch.Tensor", "torch.FloatTensor", "torch.DoubleTensor",
    "torch.LongTensor", "torch.IntTensor", "torch.ByteTensor", "torch.BoolTensor",
    "torch.HalfTensor"})
_VARIABLE = ("torch.autograd.Variable", "torch.autograd.variable.Variable")
#: the methods that copy a tensor to a device
_COPIES = ("cuda", "to")
#: their keyword for an asynchronous copy: `non_blocking`, PyTorch 0.3's `async` (which
#: the frontend reads as `asyn_` in code valid only before Python 3.7)
_NON_BLOCKING = ("non_blocking", "async", "asyn_")
#: `torch.<dtype>`: `.to(torch.float32)` converts on the host, it copies nothing
_DTYPES = frozenset(f"torch.{n}" for n in (
    "float", "float32", "float64", "double", "half", "float16", "bfloat16", "int", "int32",
    "int64", "long", "int16", "short", "int8", "uint8", "bool", "complex64"))


def host_tensor(value: ir.Value, depth: int = 0) -> bool:
    """Whether `value` is a tensor in host memory: a CPU factory's (`torch.zeros(n)`), a
    batch a data loader yields or a field of it, host data wrapped as a tensor
    (`torch.from_numpy(a)`, `torch.FloatTensor(a)`), `Variable(x)` or a view or pure
    method of one, a local that straight-line code binds to one, or a parameter every
    caller passes one for."""
    if on_cpu(value) or loader_batch_place(value) is not None:
        return True
    op = producer(value)
    if depth > 4:
        return False
    if op is None:  # `d` of `for d in data`: an element of host tensors
        iterated = _iterated(value)
        return iterated is not None and _holds_host_tensors(iterated, depth + 1)
    if op.name == "host.unpack":  # `img, label = data` of a batch
        return host_tensor(op.operands[0], depth + 1)
    if op.name == "host.load":
        passed = passed_arguments(value)  # a parameter: what every caller passes
        if passed:
            return all(host_tensor(argument, depth + 1) for argument, _ in passed)
        store = reaching_store(op)
        return store is not None and host_tensor(store.operands[0], depth + 1)
    if op.name != "host.call":
        return False
    qualname = string_attr(op, "qualname")
    arguments = [v for k, v in call_arguments(op) if not k]
    if qualname in _HOST_WRAPPERS:
        return True
    of = receiver(op)
    if of is not None and string_attr(op, "effect") in ("pure", "view") and \
            string_attr(op, "method") not in _COPIES:
        return host_tensor(of, depth + 1)  # `img.view(n, -1)`, `x.float()` stay on the host
    return qualname in _VARIABLE and bool(arguments) and host_tensor(arguments[0], depth + 1)


#: NumPy calls whose result is an array of indices (`np.random.choice` and `randint` only
#: with a size: without one they draw a scalar, which indexes without a copy)
_INDEX_ARRAYS = frozenset({"numpy.arange", "numpy.random.permutation", "numpy.array",
                           "numpy.asarray"})
_SIZED_DRAWS = {"numpy.random.choice": 1, "numpy.random.randint": 2}


def _bound(load: ir.Operation) -> ir.Value | None:
    """What a name read holds, where the code says: the value its scope binds it to once,
    or the store that reaches the read in straight-line code."""
    bound = stored_once(load)
    if bound is None and (store := reaching_store(load)) is not None:
        bound = store.operands[0]
    return bound


def device_tensor(value: ir.Value, depth: int = 0) -> bool:
    """Whether `value` is a tensor the program put on a device: a copy's result
    (`.cuda()`, `.to(device)`), a factory given `device=` naming one, or a view or pure
    method of one (`obs.reshape(-1)`), through locals that straight-line code binds."""
    op = producer(value)
    if op is None or depth > 4:
        return False
    if op.name == "host.load":
        bound = _bound(op)
        return bound is not None and device_tensor(bound, depth + 1)
    if op.name != "host.call":
        return False
    arguments = call_arguments(op)
    method = string_attr(op, "method")
    if method == "cuda" or any(k == "device" and names_device(v) for k, v in arguments):
        return True
    if method == "to":
        return any(k in ("", "device") and names_device(v) for k, v in arguments)
    of = receiver(op)
    return of is not None and string_attr(op, "effect") in ("pure", "view") and \
        device_tensor(of, depth + 1)


def _index_array(value: ir.Value, depth: int = 0) -> bool:
    """Whether `value` is a NumPy array of indices (`np.arange(n)`, a permutation, a sized
    draw) or a slice of one (`b_inds[start:end]`), through locals bound to one."""
    op = producer(value)
    if op is None or depth > 4:
        return False
    if op.name == "host.load":
        bound = _bound(op)
        return bound is not None and _index_array(bound, depth + 1)
    if op.name == "host.getitem":
        index = producer(op.operands[1])
        return index is not None and index.name == "host.slice" and \
            _index_array(op.operands[0], depth + 1)
    qualname = string_attr(op, "qualname") if op.name == "host.call" else ""
    if qualname in _INDEX_ARRAYS:
        return True
    if qualname in _SIZED_DRAWS:
        arguments = call_arguments(op)
        return any(k == "size" for k, _ in arguments) or \
            len([k for k, _ in arguments if not k]) > _SIZED_DRAWS[qualname]
    return False


def _gather_by_host_indices(op: ir.Operation) -> bool:
    """`t[idx]` of a device tensor with a NumPy array of indices: PyTorch copies the
    indices to the device, a copy from pageable memory that waits for queued work."""
    return op.name == "host.getitem" and _index_array(op.operands[1]) and \
        device_tensor(op.operands[0])


def _iterated(value: ir.Value) -> ir.Value | None:
    """What the `for` loop whose variable `value` is iterates, or None."""
    loop = value.owner.owner if isinstance(value.owner, ir.Block) else None
    return loop.operands[0] if loop is not None and loop.name == "host.for" else None


def _holds_host_tensors(value: ir.Value, depth: int, seen: frozenset = frozenset()) -> bool:
    """Whether the elements of the container `value` are tensors in host memory (what a
    copy of one to the device waits for): a loader's batch, a tuple, list or comprehension
    of host tensors, `enumerate` of one, an iterable handed to a function no call of the
    program passes (a data loader from outside: the loop copies its fields to the device),
    or a local whose stores before this read bind one (`data = (data,)` beside `for data,
    target in loader`)."""
    op = producer(value)
    if depth > 8:  # a field of a field of an element of a parameter: a few steps each
        return False
    if loader_batch_place(value) is not None:
        return True
    if op is None:  # an element of a loop's iterable: a batch of host tensors' fields
        iterated = _iterated(value)
        return iterated is not None and _holds_host_tensors(iterated, depth + 1, seen)
    if op.name == "host.unpack":  # `(data, target)` of such an element
        return _holds_host_tensors(op.operands[0], depth + 1, seen)
    if op.name in ("host.tuple", "host.list"):
        return bool(op.operands) and all(
            host_tensor(v, depth + 1) or _holds_host_tensors(v, depth + 1, seen)
            for v in op.operands)
    if op.name == "host.comprehension":
        made = [o.operands[0] for o in walk(op) if o.name == "host.append"]
        return bool(made) and all(host_tensor(v, depth + 1) for v in made)
    if op.name == "host.call" and string_attr(op, "qualname") == "builtins.enumerate":
        return len(op.operands) > 1 and _holds_host_tensors(op.operands[1], depth + 1, seen)
    if op.name != "host.load" or string_attr(op, "scope"):
        return False
    name = string_attr(op, "name")
    if name in seen:
        return True  # `data = (data,)`: the other stores decide
    passed = passed_arguments(value)
    if passed:
        return all(_holds_host_tensors(v, depth + 1) for v, _ in passed)
    scope = enclosing_scope(op)
    stores = []
    for o in walk(scope):  # the stores of the name that come before this read
        if same_op(o, op):
            break
        if o.name == "host.store" and string_attr(o, "name") == name and \
                not string_attr(o, "scope") and same_op(enclosing_scope(o), scope):
            stores.append(o)
    if not stores:
        return False
    handed = [s for s in stores if is_parameter(s.operands[0], scope)]
    if handed:
        return len(handed) == len(stores)  # an iterable from outside the program
    return all(_holds_host_tensors(s.operands[0], depth + 1, seen | {name})
               for s in stores)


@per_run()
def blocking_copy(loop: ir.Operation, depth: int = 2) -> ir.Operation | None:
    """A copy to the device that `loop` makes on (nearly) every iteration and that waits
    for the device's queued work: a host tensor copied without `non_blocking=True`
    (`x_.cuda()` of its batch), or NumPy indices of a device tensor (`b_obs[mb_inds]`), in
    its body or in a function of the program it calls (`depth` calls deep, outside that
    function's loops). None when it makes none."""
    return in_every_iteration(
        loop, lambda op: _blocking_copy_of_host_tensor(op) or _gather_by_host_indices(op),
        depth)


def in_every_iteration(loop: ir.Operation, accept, depth: int = 2) -> ir.Operation | None:
    """The first call that `accept` takes among those `loop` runs on (nearly) every
    iteration: in its body, not under a periodic guard or an inner loop, or in a function
    of the program such a call runs (`depth` calls deep, on every call of it)."""
    return _first(loop, lambda op: same_op(_statement_loop(op), loop) and
                  frequency(op, loop).kind in ("always", "conditional"), accept, depth)


def _statement_loop(op: ir.Operation) -> ir.Operation | None:
    """The loop whose iterations run `op`'s statement: a comprehension's own loop is part of
    the statement (`data = tuple(d.cuda() for d in data)` copies the batch's fields)."""
    loop = enclosing_loop(op)
    while loop is not None and loop.parent is not None and \
            loop.parent.name == "host.comprehension":
        loop = enclosing_loop(loop.parent)
    return loop


def _first(region_op: ir.Operation, every_time, accept, depth: int) -> ir.Operation | None:
    """The first call in `region_op` that runs each time (`every_time`) and that `accept`
    takes, looking into the program's functions such calls run first."""
    for op in walk(region_op):
        if op.name not in ("host.call", "host.getitem") or not every_time(op):
            continue
        func = called_function(op) if depth > 0 and op.name == "host.call" else None
        if func is not None:
            found = _first(func, lambda o, f=func: _outside_loops(o, f), accept, depth - 1)
            if found is not None:
                return found
        if accept(op):
            return op
    return None


def _outside_loops(op: ir.Operation, func: ir.Operation) -> bool:
    """Whether `op` runs on every call of `func`: no loop of `func` holds it, and no
    branch (a first-call set-up, a periodic guard) guards it."""
    parent = op.parent
    while parent is not None and not same_op(parent, func):
        if parent.name in ("host.for", "host.while", "host.if", "host.try"):
            return False
        parent = parent.parent
    return True


def _blocking_copy_of_host_tensor(op: ir.Operation) -> bool:
    """`x.cuda()` or `x.to(device)` of a host tensor, without `non_blocking=True` (a
    helper's parameter has no kind of its own: that its callers pass host tensors is the
    proof that the call is the tensor's method)."""
    if string_attr(op, "method") not in _COPIES or \
            string_attr(op, "effect") not in ("transfer", "unknown"):
        return False
    arguments = call_arguments(op)
    if any(k in _NON_BLOCKING and constant_value(v) is not False for k, v in arguments):
        return False
    target = next((v for k, v in arguments if k in ("", "device", "dtype")), None)
    made = producer(target) if target is not None else None
    if made is not None and string_attr(made, "qualname") in _DTYPES:
        return False  # a dtype conversion on the host
    copied = receiver(op)
    return copied is not None and host_tensor(copied)
