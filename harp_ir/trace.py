"""Traced graphs: the graphs a program really builds, added to its module beside the host
code and linked to the calls that run them.

A trace spec (a TOML file, or `[tool.harp.trace]` in pyproject.toml) names entry points:

    [[entry]]
    target = "model.py:Net"          # file:name - an nn.Module class or instance, a
    framework = "torch"              #   Keras model, a tf.function or a function
    args = [10]                      # constructor arguments (for a class)
    inputs = [{shape = [2, 1, 28, 28], dtype = "float32"}]

PyTorch entries are exported with `torch_mlir.fx.export_and_import` (torch dialect),
TensorFlow ones converted with `tf.mlir.experimental.convert_function` (tf ops, generic
form). Tracing imports the user's program, so each entry runs in a subprocess with a time
limit (`timeout`, 120 s by default); TensorFlow is imported there after the MLIR bindings.
Each graph becomes a `func.func @<name>` in the module, with its facts (`harp.op_count`,
`harp.op_kinds`, `harp.pure`, `harp.flops`); every host call of the entry (`model(x)`
where `model = Net(...)`, or `step(x)`) gets `harp.graph = @<name>`, so a pass can go from
a call in a loop to the graph it runs (`graph_of`). A trace that fails is a diagnostic
naming the spec and the entry; the static module is kept.
"""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from torch_mlir import ir

from harp_ir.analysis import producer, string_attr, walk
from harp_ir.feedback import schema_errors

DEFAULT_TIMEOUT = 120.0
#: ops whose presence makes a graph stateful (it writes variables or has side effects)
IMPURE_OPS = ("tf.AssignVariableOp", "tf.AssignAddVariableOp", "tf.AssignSubVariableOp",
              "tf.Print", "tf.PrintV2", "tf.StatefulPartitionedCall", "torch.aten.copy_",
              "torch.overwrite.tensor.contents")


class TraceError(Exception):
    """A spec or an entry that cannot be traced; the message names the spec and entry."""


#: the tensor element types an input may name (`dtype`), known to torch and TensorFlow
DTYPES = ("float16", "bfloat16", "float32", "float64", "int8", "int16", "int32", "int64",
          "uint8", "bool")


class InputSpec(BaseModel):
    """One example input of an entry: a random tensor of this shape and element type."""

    model_config = ConfigDict(extra="forbid", strict=True)

    shape: list[Annotated[int, Field(ge=0)]]
    dtype: Literal[DTYPES] = "float32"


class Entry(BaseModel):
    """One `[[entry]]` of a trace spec: unknown keys and wrong types are errors."""

    model_config = ConfigDict(extra="forbid", strict=True)

    target: Annotated[str, Field(pattern=r"^.+:[A-Za-z_][A-Za-z_0-9]*$")]
    framework: Literal["torch", "tf"]
    args: list = []
    kwargs: dict = {}
    inputs: list[InputSpec] = []
    name: str = ""
    timeout: Annotated[float, Field(gt=0)] = DEFAULT_TIMEOUT

    @property
    def file(self) -> str:
        return self.target.rsplit(":", 1)[0]

    @property
    def attr(self) -> str:
        return self.target.rsplit(":", 1)[1]

    @property
    def symbol(self) -> str:
        return self.name or self.attr


class TraceSpec(BaseModel):
    """A trace spec: a list of entries and nothing else."""

    model_config = ConfigDict(extra="forbid", strict=True)

    entry: list[Entry] = []


def load_spec(path: str | Path) -> list[Entry]:
    """The entries of a trace spec (TOML, or `[tool.harp.trace]` of a pyproject.toml),
    checked by its schema; file names in it are relative to the spec's folder."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise TraceError(f"{path}: error: cannot read the trace spec: {e}") from None
    if path.name == "pyproject.toml":
        data = data.get("tool", {}).get("harp", {}).get("trace", {})
    try:
        entries = TraceSpec.model_validate(data).entry
    except ValidationError as e:
        raise TraceError(f"{path}: error: {schema_errors(e, 'entry')}") from None
    if not entries:
        raise TraceError(f"{path}: error: no [[entry]] in the trace spec")
    for entry in entries:
        file = Path(entry.file)
        entry.target = f"{file if file.is_absolute() else path.parent / file}:{entry.attr}"
    return entries


def trace(entry: Entry) -> str:
    """The MLIR text of an entry's graph, traced in a subprocess; raises TraceError."""
    request = json.dumps(entry.model_dump() | {"symbol": entry.symbol})
    try:
        done = subprocess.run([sys.executable, "-m", "harp_ir.trace", request],
                              capture_output=True, text=True, timeout=entry.timeout)
    except subprocess.TimeoutExpired:
        raise TraceError(f"{entry.target}: error: tracing timed out after "
                         f"{entry.timeout:g} s") from None
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if not lines:
        raise TraceError(f"{entry.target}: error: the tracer exited {done.returncode}: "
                         f"{done.stderr.strip()[-400:]}")
    answer = json.loads(lines[-1])
    if "error" in answer:
        raise TraceError(f"{entry.target}: error: {answer['error']}")
    return answer["text"]


def add_traces(module: ir.Module, entries: list[Entry]) -> list[str]:
    """Trace each entry into `module` and link its call sites; the diagnostics of the
    entries that failed (the others are still added)."""
    errors = []
    for entry in entries:
        try:
            func = _insert(module, trace(entry), entry.symbol)
        except TraceError as e:
            errors.append(str(e))
            continue
        annotate_graph(func)
        link_calls(module, entry, func)
    return errors


def _insert(module: ir.Module, text: str, symbol: str) -> ir.Operation:
    """Move the traced entry function into `module` as `@symbol`."""
    try:
        traced = ir.Module.parse(text)
    except ir.MLIRError as e:
        raise TraceError(f"{symbol}: error: the traced graph does not parse: {e}") from None
    funcs = [op.operation for op in traced.body.operations
             if op.operation.name == "func.func"]
    if not funcs:
        raise TraceError(f"{symbol}: error: the trace holds no function")
    entry = next((f for f in funcs if "tf.entry_function" in f.attributes), funcs[-1])
    entry.attributes["sym_name"] = ir.StringAttr.get(symbol)
    entry.attributes["sym_visibility"] = ir.StringAttr.get("private")
    for op in funcs:
        module.body.append(op)
    return entry


def annotate_graph(func: ir.Operation) -> None:
    """Record on a graph function what a pass needs: op count and kinds, purity, FLOPs."""
    kinds: dict[str, int] = {}
    flops = 0
    for op in walk(func):
        if op.name in ("func.return",) or op.name.startswith(("torch.constant.",
                                                              "torch.prim.ListConstruct")):
            continue
        kinds[op.name] = kinds.get(op.name, 0) + 1
        flops += op_flops(op)
    func.attributes["harp.op_count"] = _i64(sum(kinds.values()))
    func.attributes["harp.op_kinds"] = ir.DictAttr.get(
        {k: _i64(v) for k, v in sorted(kinds.items())})
    func.attributes["harp.pure"] = ir.BoolAttr.get(not set(kinds) & set(IMPURE_OPS))
    func.attributes["harp.flops"] = _i64(flops)


def _i64(value: int) -> ir.Attribute:
    return ir.IntegerAttr.get(ir.IntegerType.get_signless(64), value)


_SHAPE = re.compile(r"(?:vtensor<\[|tensor<)([0-9x,?]*?)(?:\]|x?[a-z!])")


def shape(value: ir.Value) -> list[int] | None:
    """The static shape of a tensor value (`!torch.vtensor<[2,10],f32>`, `tensor<2x10xf32>`),
    or None when a dimension or the rank is unknown."""
    m = _SHAPE.search(str(value.type))
    if m is None or "?" in m.group(1) or "*" in str(value.type):
        return None
    dims = [d for d in re.split(r"[x,]", m.group(1)) if d]
    return [int(d) for d in dims]


def op_flops(op: ir.Operation) -> int:
    """A rough cost: 2*M*N*K for a matrix product, 2*output*kernel for a convolution, one
    per output element for the rest (0 where shapes are unknown)."""
    out = shape(op.results[0]) if len(op.results) == 1 else None
    if out is None:
        return 0
    elements = math.prod(out)
    name = op.name
    if name in ("torch.aten.mm", "torch.aten.matmul", "torch.aten.linear", "tf.MatMul",
                "torch.aten.bmm", "tf.BatchMatMulV2"):
        lhs = shape(op.operands[0])
        return 2 * elements * lhs[-1] if lhs else 0
    if name in ("torch.aten.convolution", "torch.aten.conv2d", "tf.Conv2D"):
        kernel = shape(op.operands[1])
        if not kernel:
            return 0
        # torch weights are [out, in, kh, kw]; TF filters [kh, kw, in, out]
        per_output = math.prod(kernel[1:]) if name.startswith("torch") else \
            math.prod(kernel[:3])
        return 2 * elements * per_output
    return elements


def link_calls(module: ir.Module, entry: Entry, func: ir.Operation) -> int:
    """Set `harp.graph = @symbol` on every host call of the entry: a call of the traced
    function itself, or of a name bound to an instance of the traced class."""
    instances = {entry.attr}
    for op in walk(module.operation):
        if op.name == "host.store":
            made = producer(op.operands[0])
            if made is not None and made.name == "host.call" and \
                    _callee_name(made) == entry.attr:
                instances.add(string_attr(op, "name"))
    linked = 0
    symbol = ir.FlatSymbolRefAttr.get(string_attr(func, "sym_name"))
    for op in walk(module.operation):
        if op.name == "host.call" and _callee_name(op) in instances and \
                not _constructs(op, entry):
            op.attributes["harp.graph"] = symbol
            linked += 1
    return linked


def _callee_name(call: ir.Operation) -> str:
    callee = producer(call.operands[0])
    return string_attr(callee, "name") if callee is not None and \
        callee.name == "host.load" else ""


def _constructs(call: ir.Operation, entry: Entry) -> bool:
    """`Net(...)` itself builds the module; only calls of a function run the graph."""
    return _callee_name(call) == entry.attr and entry.attr[:1].isupper()


def graph_of(call: ir.Operation) -> ir.Operation | None:
    """The traced `func.func` a host call runs (`harp.graph`), if it was traced."""
    if "harp.graph" not in call.attributes:
        return None
    name = ir.FlatSymbolRefAttr(call.attributes["harp.graph"]).value
    top = call
    while top.parent is not None:
        top = top.parent
    # traced graphs sit at the top level: look there, not through the whole program
    return next((op.operation for op in top.regions[0].blocks[0].operations
                 if op.operation.name == "func.func"
                 and string_attr(op.operation, "sym_name") == name), None)


# --- the tracer, run in a subprocess: python -m harp_ir.trace REQUEST ---------------------


def _load_target(request: dict):
    import importlib.util

    file = Path(request["target"].rsplit(":", 1)[0])
    if not file.is_file():
        raise ValueError(f"no such file {file}")
    spec = importlib.util.spec_from_file_location(f"harp_traced_{file.stem}", file)
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(file.parent))
    spec.loader.exec_module(module)
    name = request["target"].rsplit(":", 1)[1]
    if not hasattr(module, name):
        raise ValueError(f"{file.name} defines no `{name}`")
    target = getattr(module, name)
    if isinstance(target, type):
        target = target(*request.get("args", []), **request.get("kwargs", {}))
    return target


def _trace_torch(request: dict) -> str:
    import torch
    from torch_mlir import fx

    target = _load_target(request)
    if not isinstance(target, torch.nn.Module):
        raise ValueError("a torch entry must be an nn.Module class or instance")
    target.eval()
    inputs = [torch.randn(*spec["shape"], dtype=getattr(torch, spec.get("dtype", "float32")))
              for spec in request["inputs"]]
    return str(fx.export_and_import(target, *inputs, func_name=request["symbol"]))


def _trace_tf(request: dict) -> str:
    import tensorflow as tf

    target = _load_target(request)
    specs = [tf.TensorSpec(spec["shape"], getattr(tf, spec.get("dtype", "float32")))
             for spec in request["inputs"]]
    if isinstance(target, tf.keras.Model):
        function = tf.function(lambda *xs: target(*xs, training=False))
    elif hasattr(target, "get_concrete_function"):
        function = target
    elif callable(target):
        function = tf.function(target)
    else:
        raise ValueError("a tf entry must be a Keras model, a tf.function or a function")
    concrete = function.get_concrete_function(*specs)
    return tf.mlir.experimental.convert_function(concrete)


def _worker(request: dict) -> dict:
    try:
        tracer = _trace_torch if request["framework"] == "torch" else _trace_tf
        return {"text": tracer(request)}
    except Exception as e:  # noqa: BLE001  (the user's code: report what it raised)
        return {"error": f"{type(e).__name__}: {e}".strip()[:1000]}


if __name__ == "__main__":
    print(json.dumps(_worker(json.loads(sys.argv[1]))))
