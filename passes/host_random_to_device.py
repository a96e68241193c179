"""--harp-host-random-to-device (HARP205): random numbers drawn on the host and copied
to the device on every step.

Finds: a copy to the device (`.to(device)`, `.cuda()`, `torch.cuda.FloatTensor(a)`, a
`Tensor` alias of it chosen by `torch.cuda.is_available()`, `torch.tensor(a,
device=...)`, `tf.constant`/`tf.convert_to_tensor`) of data drawn by a host random
generator (`numpy.random.*`, or a torch factory without `device=`), seen through
conversions that keep the data on the host (`torch.from_numpy`, `Variable`, `.float()`),
in a loop that runs a model, or in a function of the file that such a loop calls. The
host draws and copies (a blocking copy from pageable memory) what the device could draw
in place.

Assumes: the loop runs many times and the statement on (nearly) every iteration; the
program does not rely on the exact random numbers (drawing them on the device gives a
different sequence, so the fix is unsafe).
"""

from __future__ import annotations

import libcst as cst
from torch_mlir import ir

from harp_ir.analysis import (
    Assumption,
    accelerator,
    call_arguments,
    called_rarely,
    constant_value,
    definition,
    describe_loop,
    does_model_work,
    enclosing_scope,
    few_iterations,
    frequency,
    holds,
    loop_of,
    loop_runs,
    names_device,
    producer,
    receiver,
    record_hint,
    runs_inner_loop,
    string_attr,
    walk,
)
from harp_ir.codemods import Decline, node_at, syntax
from harp_ir.frontend.names import dotted_name
from harp_ir.rules import Fix, HintSpec, Rule, always_unsafe

HINT = "HARP205"

#: torch random factories that draw on the CPU unless given `device=`
_TORCH_FACTORIES = frozenset(f"torch.{n}" for n in (
    "randn", "rand", "randint", "randperm", "normal", "bernoulli", "multinomial", "poisson"))
#: conversions whose result holds the same host data
_HOST_CONVERSIONS = frozenset({
    "torch.from_numpy", "torch.autograd.Variable", "numpy.asarray", "numpy.array",
    "numpy.float32", "torch.FloatTensor", "torch.DoubleTensor", "torch.LongTensor",
    "torch.IntTensor", "torch.HalfTensor", "torch.ByteTensor", "torch.BoolTensor"})
_HOST_METHODS = frozenset({"float", "double", "long", "int", "half", "astype", "reshape",
                           "view", "unsqueeze", "squeeze", "type", "type_as"})
#: conversions that copy host data to the device they run on
_TF_CONVERSIONS = ("tensorflow.constant", "tensorflow.convert_to_tensor",
                   "tensorflow.compat.v1.constant", "tensorflow.compat.v1.convert_to_tensor")
_DEVICE_CONVERSIONS = frozenset({"torch.tensor", "torch.as_tensor", *_TF_CONVERSIONS})
#: what to draw on the device instead, by the host generator
_DEVICE_DRAW = {
    "normal": "torch.normal(mean, std, size, device=...)` or `Tensor(*size).normal_(mean, std)",
    "randn": "torch.randn(*size, device=...)",
    "standard_normal": "torch.randn(*size, device=...)",
    "uniform": "torch.empty(size, device=...).uniform_(low, high)` or "
               "`Tensor(*size).uniform_(low, high)",
    "randint": "torch.randint(low, high, size, device=...)",
    "permutation": "torch.randperm(n, device=...)",
}
for _uniform in ("rand", "random", "random_sample", "ranf", "sample"):
    _DEVICE_DRAW[_uniform] = "torch.rand(*size, device=...)"
_DEFAULT_DRAW = "torch.distributions` with parameters on the device"


def host_random(value: ir.Value, depth: int = 0) -> ir.Operation | None:
    """The host random draw whose numbers `value` holds (`np.random.normal(...)`,
    `torch.randn(...)` without `device=`), seen through locals stored once and through
    conversions that keep the data on the host; None if there is none."""
    op = producer(value)
    if op is None or depth > 6:
        return None
    if op.name == "host.load":
        made = definition(value, enclosing_scope(op))
        return host_random(made.result, depth + 1) if made is not None and \
            made.name == "host.call" else None
    if op.name == "host.binop":  # `np.random.randn(b, d) * 0.1`
        return next((r for v in op.operands if (r := host_random(v, depth + 1))), None)
    if op.name != "host.call":
        return None
    qualname, args = string_attr(op, "qualname"), call_arguments(op)
    if string_attr(op, "effect") == "random" and (
            qualname.startswith("numpy.random.") or (
                qualname in _TORCH_FACTORIES and
                not any(k == "device" or k.startswith("*") for k, _ in args))):
        return op
    if qualname in _HOST_CONVERSIONS and args and not args[0][0]:
        return host_random(args[0][1], depth + 1)
    if string_attr(op, "method") in _HOST_METHODS and receiver(op) is not None and \
            not any(names_device(v) for _, v in args):
        return host_random(receiver(op), depth + 1)
    return None


def cuda_type_names(module: ir.Operation) -> set[str]:
    """The names bound to a CUDA tensor type: `torch.cuda.FloatTensor`, or a choice between
    it and the CPU type (`Tensor = torch.cuda.FloatTensor if cuda else torch.FloatTensor`).
    One walk per module: calls then look their callee's name up."""
    names = set()
    for op in walk(module):
        if op.name != "host.store":
            continue
        made = producer(op.operands[0])
        if made is not None and (_cuda_type(string_attr(made, "qualname")) or (
                made.name == "host.if" and any(
                    o.name == "host.getattr" and _cuda_type(string_attr(o, "qualname"))
                    for o in walk(made)))):
            names.add(string_attr(op, "name"))
    return names


def _cuda_type(qualname: str) -> bool:
    return qualname.startswith("torch.cuda.") and qualname.endswith("Tensor")


def device_copy(call: ir.Operation, cuda_names: set[str]) -> tuple[str, ir.Value] | None:
    """(how, data) when `call` copies host `data` to the device: `.cuda()`,
    `.to(device)`, a CUDA tensor type or a name bound to one (`cuda_names`),
    `torch.tensor(a, device=...)`, `tf.constant(a)`."""
    method, qualname = string_attr(call, "method"), string_attr(call, "qualname")
    callee = producer(call.operands[0])
    named = string_attr(callee, "name") if callee is not None and \
        callee.name == "host.load" else ""
    if method not in ("cuda", "to") and not _cuda_type(qualname) and \
            named not in cuda_names and qualname not in _DEVICE_CONVERSIONS:
        return None  # the cheap test first: most calls are none of these
    args = call_arguments(call)
    recv = receiver(call) if method else None
    if method == "cuda" and recv is not None:
        return ".cuda()", recv
    if method == "to" and recv is not None and any(names_device(v) for _, v in args):
        return ".to(device)", recv
    data = args[0][1] if args and not args[0][0] else None
    if data is None:
        return None
    if qualname in ("torch.tensor", "torch.as_tensor") and \
            any(k == "device" and names_device(v) for k, v in args):
        return f"{qualname.removeprefix('torch.')}(...)", data
    if qualname in _TF_CONVERSIONS:
        return f"tf.{qualname.rsplit('.', 1)[1]}(...)", data
    if _cuda_type(qualname) or named in cuda_names:
        return f"{named or qualname.rsplit('.', 1)[1]}(...)", data
    return None


def run(module, pass_=None) -> None:
    cuda_names = cuda_type_names(module)
    for op in walk(module):
        if op.name != "host.call":
            continue
        copy = device_copy(op, cuda_names)
        draw = host_random(copy[1]) if copy is not None else None
        if draw is None:
            continue
        where = loop_of(op)  # in a helper: facts across the call
        if where is None:
            continue
        loop, func, site = where
        if not does_model_work(loop) or not holds(func or loop, draw):
            continue  # numbers drawn once, before the loop, are HARP202's invariant copy
        how, drawn = copy[0], string_attr(draw, "qualname")
        short = drawn.removeprefix("numpy.random.").removeprefix("torch.")
        instead = _DEVICE_DRAW.get(short, _DEFAULT_DRAW)
        if "tensorflow" in string_attr(op, "qualname"):
            instead = "tf.random.normal(shape, mean, stddev)` or `tf.random.uniform"
        how_often = frequency(site, loop)
        message = f"`{drawn}` draws random numbers on the host and `{how}` copies them to " \
                  f"the device "
        if func is None:
            message += how_often.phrase(loop)
        else:
            message += (f"in `{string_attr(func, 'sym_name')}`, called "
                        f"{how_often.phrase(loop)}")
        message += f"; draw them on the device instead (`{instead}`)"
        assumptions = [loop_runs(loop), accelerator(op), Assumption(
            "random-stream", drawn, "medium", "speculated",
            "numbers drawn on the device follow a different sequence than the host's")]
        if how_often.assumption(loop):
            assumptions.append(how_often.assumption(loop))
        if runs_inner_loop(loop, site) or few_iterations(loop):
            assumptions.append(Assumption(
                "hot-loop", describe_loop(loop), "high", "speculated",
                "the loop runs an inner loop (once per epoch) or a handful of times"))
        elements = _elements(draw)
        if elements is None or elements < _LARGE_DRAW:
            # blind readers of real GANs judged a batch of latent noise (64 x 100 numbers,
            # about 0.1 ms to draw and copy) a few percent of a step at most
            size = f"{elements:,} numbers" if elements is not None else "numbers of a size " \
                "the code does not fix (a batch of noise, typically)"
            assumptions.append(Assumption(
                "step-share", drawn, "high", "speculated",
                f"drawing and copying {size} costs a fraction of a millisecond per step: a "
                f"few percent of a step, unless the draw is large"))
        holder = enclosing_scope(loop)
        rarely = called_rarely(holder) if holder.name == "host.func" else None
        if rarely is not None:
            assumptions.append(Assumption(
                "hot-loop", describe_loop(loop), "high", "speculated",
                f"`{string_attr(holder, 'sym_name')}` is only called when "
                f"`{rarely.guard}` holds"))
        record_hint(op, HINT, message, assumptions, related=[site] if func is not None else [])


#: numbers drawn per step above which the host draw and copy are a real share of a step
_LARGE_DRAW = 1_000_000


def _elements(draw) -> int | None:
    """How many numbers a draw makes, when the code gives every dimension as a constant:
    `np.random.normal(0, 1, (64, 100))`, `torch.randn(64, 100)`; None otherwise."""
    args = call_arguments(draw)
    positional = [v for k, v in args if not k]
    keyword = dict(args)
    name = string_attr(draw, "qualname")
    if name.startswith("numpy.random.") and name.rsplit(".", 1)[1] in ("rand", "randn"):
        dims = positional
    elif name.startswith("numpy.random."):
        size = keyword.get("size") or (positional[2] if len(positional) > 2 else None)
        if size is None:
            return None
        made = producer(size)
        dims = list(made.operands) if made is not None and made.name in (
            "host.tuple", "host.list") else [size]
    else:  # torch.randn(64, 100) or torch.randn((64, 100))
        dims = positional
        made = producer(dims[0]) if len(dims) == 1 else None
        if made is not None and made.name in ("host.tuple", "host.list"):
            dims = list(made.operands)
    total = 1
    for d in dims:
        n = constant_value(d)
        if not isinstance(n, int) or isinstance(n, bool):
            return None
        total *= n
    return total if dims else None


# --- the fix ------------------------------------------------------------------------------

_TORCH_DRAWS = frozenset({"randn", "rand", "randint", "randperm", "normal"})


#: numpy draw -> (parameter names in order, the in-place torch method, its arguments)
_NUMPY_DRAWS = {
    "normal": (("loc", "scale", "size"), "normal_", ("loc", "scale")),
    "uniform": (("low", "high", "size"), "uniform_", ("low", "high")),
    "random": (("size",), "uniform_", ()),
    "random_sample": (("size",), "uniform_", ()),
    "standard_normal": (("size",), "normal_", ()),
    "randint": (("low", "high", "size"), "random_", ("low", "high")),
}


_NUMPY_DEFAULTS = {"loc": "0.0", "scale": "1.0", "low": "0.0", "high": "1.0"}


def fix_host_random(module, positions, hint):
    """`torch.randn(...).to(device)` -> `torch.randn(..., device=device)`;
    `Tensor(np.random.normal(m, s, (b, d)))` -> `Tensor(b, d).normal_(m, s)` (the tensor
    type allocates on its device, the in-place draw fills it there). Unsafe: the numbers
    come from the device's generator, not the host's."""
    call = node_at(positions, hint.span, cst.Call)
    if isinstance(call.func, cst.Attribute) and call.func.attr.value in ("to", "cuda"):
        return module.deep_replace(call, _torch_draw_on_device(module, call))
    if len(call.args) != 1 or call.args[0].keyword or call.args[0].star:
        raise Decline("the tensor type is called with more than the drawn array")
    draw = call.args[0].value
    numpy = syntax.module_alias(module, "numpy")
    name = dotted_name(draw.func) if isinstance(draw, cst.Call) else ""
    if numpy is None or not name.startswith(f"{numpy}.random."):
        raise Decline("the drawn array is not a `numpy.random` call written in the "
                      "conversion (it is computed or named elsewhere)")
    method = name.removeprefix(f"{numpy}.random.")
    if method not in _NUMPY_DRAWS:
        raise Decline(f"no in-place torch draw matches `numpy.random.{method}`")
    params, in_place, kept = _NUMPY_DRAWS[method]
    given = _bind(draw, params)
    if "size" not in given:
        raise Decline("no `size`: numpy draws a scalar")
    if method == "randint" and "high" not in given:
        given["low"], given["high"] = cst.Integer("0"), given["low"]
    sizes = _size_arguments(given["size"])
    made = call.with_changes(args=sizes)
    fill = [cst.Arg(given[k] if k in given else cst.parse_expression(_NUMPY_DEFAULTS[k]))
            for k in kept]
    return module.deep_replace(call, cst.Call(cst.Attribute(made, cst.Name(in_place)), fill))


def _bind(call: cst.Call, params: tuple[str, ...]) -> dict:
    """numpy's arguments by parameter name; declines on anything else."""
    given = {}
    for i, arg in enumerate(call.args):
        key = arg.keyword.value if arg.keyword else (params[i] if i < len(params) else "")
        if arg.star or key not in params or key in given:
            raise Decline(f"`{dotted_name(call.func)}` is called with arguments the "
                          f"rewrite does not map (only {', '.join(params)})")
        given[key] = arg.value
    return given


def _size_arguments(size) -> list[cst.Arg]:
    """The tensor type's size arguments for numpy's `size`: the elements of a tuple or
    list, an integer, or `*x.shape` / `*x.size()`."""
    if isinstance(size, (cst.Tuple, cst.List)):
        if any(isinstance(e, cst.StarredElement) for e in size.elements):
            raise Decline("a starred element in `size`")
        return [cst.Arg(e.value) for e in size.elements]
    if isinstance(size, cst.Integer):
        return [cst.Arg(size)]
    if (isinstance(size, cst.Attribute) and size.attr.value == "shape") or (
            isinstance(size, cst.Call) and isinstance(size.func, cst.Attribute) and
            size.func.attr.value == "size" and not size.args):
        return [cst.Arg(size, star="*")]
    raise Decline("`size` is neither a literal tuple, an integer nor a `.shape`: an int "
                  "and a tuple would need different tensor-type arguments")


def _torch_draw_on_device(module, call: cst.Call) -> cst.Call:
    torch = syntax.module_alias(module, "torch")
    factory = call.func.value
    name = dotted_name(factory.func) if isinstance(factory, cst.Call) else ""
    if torch is None or name.removeprefix(f"{torch}.") not in _TORCH_DRAWS or \
            not name.startswith(f"{torch}."):
        raise Decline("the moved tensor is not a torch random factory written in the "
                      "expression")
    if any(a.keyword and a.keyword.value == "device" or a.star for a in factory.args):
        raise Decline("the factory already names a device, or takes `*args`")
    if call.func.attr.value == "cuda":
        if call.args:
            raise Decline("`.cuda(i)` names a device index")
        device = cst.SimpleString('"cuda"')
    elif len(call.args) == 1 and not call.args[0].keyword and not call.args[0].star:
        device = call.args[0].value
    else:
        raise Decline("`.to(...)` does more than move to a device")
    args = list(factory.args)
    if args:
        args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    keyword = cst.Arg(device, keyword=cst.Name("device"), equal=cst.AssignEqual(
        whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")))
    return factory.with_changes(args=[*args, keyword])


RULE = Rule(
    flag="harp-host-random-to-device",
    summary="Find host-drawn random numbers copied to the device in loops (HARP205)",
    run=run,
    hint=HintSpec(
        id="HARP205",
        name="host-random-to-device",
        finds="random numbers drawn on the host (`numpy.random.*`, a torch factory without "
              "`device=`) and copied to the device (`.to(device)`, `.cuda()`, "
              "`torch.cuda.FloatTensor(...)`) on every step of a loop that runs a model",
        why="the numbers are drawn by one CPU thread and copied to the device on every step, "
            "where the device could draw them itself",
        refactoring="draw them on the device (`torch.randn(..., device=device)`, "
                    "`Tensor(*size).normal_()`, `tf.random.normal`); the numbers differ, so it "
                    "is never a safe fix",
        before="for x, _ in loader:\n"
               "    z = torch.from_numpy(np.random.normal(0, 1, (64, 100))).to(device)\n"
               "    loss = step(G(z), x)\n",
        after="for x, _ in loader:\n"
              "    z = torch.normal(0.0, 1.0, (64, 100), device=device)\n"
              "    loss = step(G(z), x)\n",
        assumptions=("loop-runs", "hot-loop", "accelerator", "every-iteration", "random-stream",
                     "step-share"),
    ),
    fix=Fix(
        apply=fix_host_random,
        summary="unsafe",
        rewrite="(always `--unsafe-fixes`: the device draws other numbers) "
                "`torch.randn(...).to(device)` / `.cuda()` becomes `torch.randn(..., "
                "device=device)`; `Tensor(np.random.normal(m, s, (b, d)))` becomes `Tensor(b, "
                "d).normal_(m, s)` (likewise `uniform`, `random`, `randint` with `uniform_`, "
                "`random_`): the tensor type allocates on its device and the draw fills it "
                "there, keeping its dtype",
        declines="the draw is computed on (`0.75 * np.random...`) or named in another statement,"
                 " `size` could be an int or a tuple, `.to()` does more than move, numpy "
                 "arguments it does not map",
        safety=always_unsafe,
        unsafe_because="the device draws other random numbers than the host",
    ),
)
