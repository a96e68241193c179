"""harp measure: run a program once under counters and charge every count to the line of
the user's code that caused it.

The static analysis speculates about how often code runs and what its values are; a short
run settles much of that. `harp measure -- python train.py ARGS` runs the program in this
process (as `python` would: `__main__`, its `sys.argv`, its folder first on `sys.path`)
with:

- a line tracer on the user's files only (the program's folder, or `--root`): how many
  times each line ran, and how many iterations each loop made;
- for PyTorch, a torch function mode and a dispatch mode: waits on the device, copies
  between host and device, tensors made from host data, operators dispatched, backward
  passes, and `DataLoader` batches (with their worker count);
- for TensorFlow, an op callback (eager ops executed, graph ops created outside a
  `tf.function`), `Session.run` calls and the bytes they feed, `tf.function` traces with
  the argument that made each retrace, gradient tapes, and Keras `fit`/`predict`/...
  calls.

Each count goes to the innermost frame in the user's files (a helper's line, not the
loop's), a notebook's to its cell and line. Child processes (`DataLoader` workers,
`torch.multiprocessing`) are not traced; the profile says how many were started.
`--steps N` stops the run after N iterations of the loop that runs the training step
(the innermost user loop around the first `backward()`, `tape.gradient`, `Session.run`
or Keras training call), so a long training script is measured in seconds.

What the counts mean without an accelerator: the calls that cross the device boundary are
counted as the program makes them, whether or not this machine has a device (`.item()` is
a wait on a GPU and a read on a CPU: it is counted either way). On a machine without one,
`.to(device)` and `.cuda()` count as copies to the device (a program picks `cpu` only when
it has no accelerator, `cpu` included), `.cpu()` and `.numpy()` as copies to the host.
"""

from __future__ import annotations

import ast
import functools
import inspect
import json
import multiprocessing.process
import os
import runpy
import sys
import time
import traceback
import warnings
import weakref
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

PROFILE_VERSION = 1

#: the counters, in the order tables show them, and what each counts
COUNTERS: dict[str, str] = {
    "sync": "waits for a tensor's value on the host (`.item()`, `.tolist()`, `float()`, "
            "`int()`, `bool()` of a tensor, a tensor as a condition)",
    "to_host": "copies of a tensor to the host (`.cpu()`, `.numpy()`; with an "
               "accelerator, `.to('cpu')` of a tensor on it)",
    "to_device": "copies of a tensor to the device (`.to(device)`, `.cuda()`, a factory "
                 "from host data with `device=`; without an accelerator, any device the "
                 "program names, `cpu` included)",
    "host_tensor": "tensors made from host data (`torch.tensor`, `torch.as_tensor`, "
                   "`torch.from_numpy`)",
    "ops": "operators dispatched (torch ATen ops, TensorFlow eager ops): a proxy for "
           "kernel launches",
    "backward": "backward passes (`backward()`, `tape.gradient`)",
    "batches": "batches a `DataLoader` produced",
    "graph_ops": "TensorFlow graph ops created outside a `tf.function` (the graph grows)",
    "session_run": "`Session.run` calls (each one waits for its fetches)",
    "fed_bytes": "bytes fed to `Session.run` from the host",
    "traces": "`tf.function` traces (Python runs the function to build a graph)",
    "keras_calls": "Keras `fit`, `predict`, `evaluate` and `*_on_batch` calls",
    "keras_batches": "batches Keras ran inside `fit`, `predict` and `evaluate` (each one a "
                     "step of a compiled function; `predict` copies each batch's output "
                     "to the host)",
    "device_sync": "synchronizations the CUDA device itself reported "
                   "(`torch.cuda.set_sync_debug_mode`), only on a machine with one: a check "
                   "of `sync` by the device",
    "wait_us": "microseconds the host spent in those syncs of a tensor on a CUDA device "
               "(the wait for the device's queued work and the copy), only on a machine with "
               "one",
    "graphs_kept": "iterations of the enclosing loop in which a tensor this line made "
                   "extended an autograd graph made in an earlier iteration, with a "
                   "backward pass run since (`total = total + loss`), or ended while one "
                   "it made two or more iterations earlier, before a backward pass, still "
                   "held its graph (a list of losses): history kept past the backward that "
                   "used it, memory that grows",
}
#: counters that cost a wait or a copy each time: what ranks a line's cost
CROSSINGS = ("sync", "to_host", "to_device", "session_run", "traces", "graph_ops",
             "keras_calls")

#: the counters a fix's before-and-after comparison shows
COMPARED = ("sync", "to_host", "to_device", "host_tensor", "ops", "graph_ops", "session_run",
            "traces", "keras_calls", "keras_batches", "graphs_kept")

_SYNC_METHODS = {"item", "tolist", "__bool__", "__float__", "__int__", "__index__"}
_HOST_METHODS = {"cpu", "numpy"}
_HOST_FACTORIES = {"tensor", "as_tensor", "from_numpy"}
#: what the CUDA device's sync warning says (`torch.cuda.set_sync_debug_mode("warn")`)
_DEVICE_SYNC = "called a synchronizing CUDA operation"
#: the key a graph node's metadata holds its (loop, iteration, backward passes) under
_MADE = "harp_measure_made"
_KERAS_METHODS = ("fit", "predict", "evaluate", "train_on_batch", "predict_on_batch",
                  "test_on_batch")


#: torch's files between a user's call and a torch function mode (a Python-level method
#: such as `Tensor.backward` dispatching to the mode), and this file
_DISPATCH_FILES = (os.path.join("torch", "_tensor.py"), os.path.join("torch", "overrides.py"),
                   os.path.join("torch", "utils", "_device.py"), "measure.py")


class StopMeasure(BaseException):
    """Raised in the program when `--steps` iterations of the step loop have run; a
    BaseException, so `except Exception` in the program does not swallow it."""


class MeasureError(Exception):
    """A command `harp measure` cannot run (no such script, no module)."""


@dataclass
class Loop:
    """A `for` or `while` loop of a user file: its lines, the first line of its body (an
    iteration starts there), and what the run counted."""

    line: int
    end: int
    body: int
    body_end: int  # the last line of the body's first statement
    parent: int | None  # the enclosing loop's line in the same function
    entries: int = 0
    iterations: int = 0
    #: (file, line) -> [(a weak reference to a tensor with a grad_fn, the iteration and
    #: the number of backward passes when it was made)]
    watched: dict = field(default_factory=dict)
    kept: dict = field(default_factory=dict)  # (file, line) -> the last iteration counted


def _loops(source: str) -> dict[int, Loop]:
    """The loops of a file by their first line (comprehensions are not loops here)."""
    try:
        with warnings.catch_warnings():  # the program's own warnings are not harp's
            warnings.simplefilter("ignore")
            tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return {}
    found: dict[int, Loop] = {}

    def visit(node, parent):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda,
                                  ast.ClassDef)):
                visit(child, None)
            elif isinstance(child, (ast.For, ast.AsyncFor, ast.While)):
                first = child.body[0]
                found.setdefault(child.lineno, Loop(child.lineno, child.end_lineno,
                                                    first.lineno, first.end_lineno, parent))
                visit(child, child.lineno)
            else:
                visit(child, parent)

    visit(tree, None)
    return found


@dataclass
class FileInfo:
    """What the tracer knows of one user file: how to name it and its loops."""

    name: str  # as the profile names it: relative to the working folder where inside it
    path: str  # its real path, which `harp analyze --profile` matches hints by
    loops: dict[int, Loop]
    body_starts: dict[int, list[Loop]]  # first body line -> the loops it starts
    cell_of_line: object = None  # a notebook's (joined line -> (cell, line)) map

    def place(self, line: int) -> tuple[int | None, int]:
        """(cell, line) as the user sees the line: a notebook's cell and its line in it."""
        if self.cell_of_line is not None:
            where = self.cell_of_line(line)
            if where is not None:
                return where
        return None, line

    def enclosing(self, line: int) -> list[Loop]:
        """The loops whose lines hold `line`, innermost first."""
        inner = [lp for lp in self.loops.values() if lp.line <= line <= lp.end]
        return sorted(inner, key=lambda lp: -lp.line)


def _display_name(path: str) -> str:
    try:
        return os.path.relpath(path)
    except ValueError:  # another drive
        return path


@dataclass
class Recorder:
    """The counts of one run, and the hooks that make them."""

    roots: list[str]
    steps: int | None = None
    files: dict[str, FileInfo | None] = field(default_factory=dict)
    runs: Counter = field(default_factory=Counter)  # (file, line) -> times it ran
    counts: dict = field(default_factory=dict)  # (file, line) -> Counter of COUNTERS
    workers: dict = field(default_factory=dict)  # (file, line) -> a DataLoader's workers
    functions: dict = field(default_factory=dict)  # (file, line) -> traced function facts
    step_loop: tuple[str, Loop] | None = None
    stopped: bool = False
    backwards: int = 0  # PyTorch backward passes run so far
    sources: dict[str, str] = field(default_factory=dict)  # path -> source (a notebook's)
    cells: dict[str, object] = field(default_factory=dict)  # path -> locate(line)
    #: frameworks to instrument once the program has imported them, and their hooks
    pending: set[str] = field(default_factory=lambda: {"torch", "tensorflow"})
    hooks: list = field(default_factory=list)

    def hook_frameworks(self) -> None:
        """Instrument each framework the program has imported by now (called on the
        user's lines, so an import has finished): the program decides what is loaded,
        harp imports neither framework itself."""
        for name in sorted(self.pending):
            if name in sys.modules:
                self.pending.discard(name)
                hooks = (_torch_hooks if name == "torch" else _tf_hooks)(self)
                hooks.__enter__()
                self.hooks.append(hooks)

    # -- which files are the user's ------------------------------------------------------

    def info(self, filename: str) -> FileInfo | None:
        """The user file `filename` names, or None for a library's or Python's own."""
        if filename in self.files:
            return self.files[filename]
        info = None
        path = os.path.realpath(filename) if not filename.startswith("<") else ""
        excluded = ("site-packages" in path or "dist-packages" in path
                    or os.path.basename(path).startswith("__autograph_generated_file")
                    or path.startswith(os.path.realpath(sys.prefix) + os.sep)
                    or path.startswith(os.path.realpath(sys.base_prefix) + os.sep))
        if path and not excluded and any(path == r or path.startswith(r + os.sep)
                                          for r in self.roots):
            source = self.sources.get(filename)
            if source is None:
                try:
                    source = Path(path).read_text(encoding="utf-8", errors="replace")
                except OSError:
                    source = ""
            loops = _loops(source)
            starts: dict[int, list[Loop]] = {}
            for lp in loops.values():
                starts.setdefault(lp.body, []).append(lp)
            info = FileInfo(_display_name(filename), path, loops, starts,
                            self.cells.get(filename))
        self.files[filename] = info
        return info

    def user_frame(self, frame=None):
        """The innermost frame of the running stack in a user file (and its info)."""
        frame = frame or sys._getframe(2)
        while frame is not None:
            info = self.info(frame.f_code.co_filename)
            if info is not None:
                return frame, info
            frame = frame.f_back
        return None, None

    def count(self, name: str, n: int = 1) -> tuple | None:
        """Charge `n` of counter `name` to the current line of the user's code."""
        return self._charge(self.user_frame(sys._getframe(1))[0], name, n)

    def _charge(self, frame, name: str, n: int = 1) -> tuple | None:
        """Add `n` to counter `name` at `frame`'s current line; its key, or None."""
        if frame is None:
            return None
        key = (frame.f_code.co_filename, frame.f_lineno)
        self.counts.setdefault(key, Counter())[name] += n
        return key

    def count_direct(self, name: str) -> tuple | None:
        """Charge a crossing to the user's line only when the user's code made it: the
        first caller past torch's own dispatch is a user frame (a sampler's `.tolist()`
        inside a `DataLoader` is the library's, on host tensors, not the program's)."""
        frame = sys._getframe(2)
        while frame is not None and frame.f_code.co_filename.endswith(_DISPATCH_FILES):
            frame = frame.f_back
        if frame is None or self.info(frame.f_code.co_filename) is None:
            return None
        return self._charge(frame, name)

    # -- autograd graphs kept across iterations ------------------------------------------

    def watch(self, tensor, inputs_made: list) -> None:
        """A user line made `tensor`, which has a `grad_fn`: stamp its graph node with the
        iteration of the innermost user loop around the line (on any frame of the stack)
        and the backward passes run so far; count the line if an input's graph was made
        in an earlier iteration of that loop and a backward pass has run since (history
        carried past the backward that used it: `total = total + loss`; a rollout's
        log-probabilities kept for the backward after the loop are not); and remember the
        tensor to see whether it outlives its iteration."""
        frame, _ = self.user_frame(sys._getframe(2))
        around = self.loop_around(frame)
        if around is None:
            return
        key, lp = (frame.f_code.co_filename, frame.f_lineno), around[1]
        now = lp.iterations
        tensor.grad_fn.metadata[_MADE] = (id(lp), now, self.backwards)
        if any(loop == id(lp) and made < now and passes < self.backwards
               for loop, made, passes in inputs_made):
            self._kept(key, lp, now)
        lp.watched.setdefault(key, []).append((weakref.ref(tensor), now, self.backwards))

    def kept_graphs(self, lp: Loop) -> None:
        """An iteration of `lp` starts: each line whose tensor from two or more
        iterations ago still holds its graph, with a backward pass run since it was made,
        is counted for the iteration that ended (a tensor the last iteration made may live
        on in its variable until the next assignment; a list of losses keeps them all)."""
        ended = lp.iterations - 1
        for key, watched in list(lp.watched.items()):
            drop = 0
            for ref, made, passes in watched:
                if made >= ended:
                    break
                tensor = ref()
                if tensor is not None and tensor.grad_fn is not None and \
                        passes < self.backwards:
                    self._kept(key, lp, ended)
                    break
                drop += 1
            if drop:
                del watched[:drop]
            if not watched:
                del lp.watched[key]

    def _kept(self, key: tuple, lp: Loop, iteration: int) -> None:
        """Count `graphs_kept` at `key` once for an iteration of `lp`."""
        if lp.kept.get(key) != iteration:
            lp.kept[key] = iteration
            self.counts.setdefault(key, Counter())["graphs_kept"] += 1

    # -- lines and loops ------------------------------------------------------------------

    def global_trace(self, frame, event, arg):
        if event != "call":
            return None
        info = self.info(frame.f_code.co_filename)
        if info is None:
            return None
        return _FrameTracer(self, frame.f_code.co_filename, info)

    def step(self) -> None:
        """A training step ran: the first one fixes the loop `--steps` counts (the
        innermost user loop around it, on any frame of the stack)."""
        if self.step_loop is None and self.steps is not None:
            self.step_loop = self.loop_around(sys._getframe(1))

    def loop_around(self, frame) -> tuple[str, Loop] | None:
        """(file, loop): the innermost user loop around `frame`'s line or, where that
        frame is in no loop, around a caller's (a helper the training loop calls)."""
        while frame is not None:
            info = self.info(frame.f_code.co_filename)
            around = info.enclosing(frame.f_lineno) if info is not None else None
            if around:
                return frame.f_code.co_filename, around[0]
            frame = frame.f_back
        return None

    # -- the profile ----------------------------------------------------------------------

    def profile(self) -> dict:
        """The counts as the profile's JSON (see `Profile` for the schema)."""
        lines = []
        for key in sorted(set(self.runs) | set(self.counts)):
            filename, line = key
            info = self.info(filename)
            if info is None:
                continue
            cell, at = info.place(line)
            entry = {"file": info.name, "path": info.path, "cell": cell,
                     "line": at,
                     "runs": self.runs.get(key, 0),
                     "loops": [info.place(lp.line)[1] for lp in info.enclosing(line)],
                     "counts": dict(sorted(self.counts.get(key, {}).items()))}
            if key in self.workers:
                entry["workers"] = self.workers[key]
            lines.append(entry)
        loops = []
        for info in self.files.values():
            if info is None:
                continue
            for lp in sorted(info.loops.values(), key=lambda lp: lp.line):
                if lp.entries or lp.iterations:
                    cell, at = info.place(lp.line)
                    loops.append({"file": info.name, "path": info.path, "cell": cell,
                                  "line": at,
                                  "entries": lp.entries, "iterations": lp.iterations})
        functions = []
        for (filename, line), facts in sorted(self.functions.items()):
            info = self.info(filename)
            cell, at = info.place(line) if info else (None, line)
            functions.append({"file": info.name if info else filename, "cell": cell,
                              "line": at, **facts})
        return {"lines": lines, "loops": loops, "functions": functions}


class _FrameTracer:
    """The line tracer of one frame of a user file: counts lines, and loop iterations as
    the starts of a loop's body (a jump back inside the body's first statement is not
    one)."""

    __slots__ = ("recorder", "filename", "info", "last")

    def __init__(self, recorder: Recorder, filename: str, info: FileInfo):
        self.recorder, self.filename, self.info, self.last = recorder, filename, info, 0

    def __call__(self, frame, event, arg):
        if event != "line":
            return self
        line = frame.f_lineno
        rec = self.recorder
        if rec.pending:
            rec.hook_frameworks()
        lp = self.info.loops.get(line)
        if lp is not None and not (lp.line < self.last <= lp.end):
            lp.entries += 1
        for lp in self.info.body_starts.get(line, ()):
            if lp.body < self.last <= lp.body_end and self.last != line:
                continue  # back inside the first statement's own lines
            if lp.body == lp.line and self.last == line:
                continue  # a one-line loop: its iterations are not told apart
            step = rec.step_loop
            if step is not None and step[1] is lp and lp.iterations >= rec.steps:
                rec.stopped = True  # the iteration that would start is not run
                self.last = line
                raise StopMeasure
            lp.iterations += 1
            if lp.watched:
                rec.kept_graphs(lp)
        rec.runs[(self.filename, line)] += 1
        self.last = line
        return self


# -- the frameworks' hooks -------------------------------------------------------------


def _torch_hooks(rec: Recorder):
    """Context managers that count PyTorch's crossings, ops, backward passes and batches
    (entered for the whole run)."""
    import torch
    import torch.utils.data.dataloader as dataloader
    from torch.overrides import TorchFunctionMode
    from torch.utils._python_dispatch import TorchDispatchMode

    accelerated = torch.cuda.is_available()

    def placed(device) -> str | None:
        """`to_device` for a tensor placed on a device: on a machine without an
        accelerator, any device the program names (it names `cpu` only because it has none
        here); with one, a device other than the host."""
        if device is None:
            return None
        if not accelerated or torch.device(device).type != "cpu":
            return "to_device"
        return None

    def device_move(args, kwargs) -> str | None:
        """`to_device`, `to_host` or None for the arguments of `Tensor.to`."""
        target = kwargs.get("device", args[1] if len(args) > 1 else None)
        if isinstance(target, torch.Tensor):
            target = target.device
        if not isinstance(target, (str, int, torch.device)):
            return None  # a dtype, or nothing: no move
        if accelerated and torch.device(target).type == "cpu":
            return "to_host" if args[0].device.type != "cpu" else None
        return placed(target)

    def made_in(args) -> list:
        """The (loop, iteration, backward passes) stamps of the graphs the arguments'
        tensors belong to, read before an in-place op replaces them."""
        stamps = []
        for arg in args:
            for t in (arg if isinstance(arg, (list, tuple)) else (arg,)):
                if isinstance(t, torch.Tensor) and t.grad_fn is not None:
                    stamp = t.grad_fn.metadata.get(_MADE)
                    if stamp is not None:
                        stamps.append(stamp)
        return stamps

    class Crossings(TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            name = getattr(func, "__name__", "")
            waits = None  # where a wait on the device is charged, and when it began
            if name in _SYNC_METHODS and args and isinstance(args[0], torch.Tensor):
                key = rec.count_direct("sync")
                if accelerated and key is not None and args[0].device.type != "cpu":
                    waits = key, time.perf_counter()
            elif name in _HOST_METHODS:
                rec.count_direct("to_host")
            elif name == "cuda":
                rec.count_direct("to_device")
            elif name == "to":
                move = device_move(args, kwargs)
                if move:
                    rec.count_direct(move)
            elif name in _HOST_FACTORIES:
                if rec.count_direct("host_tensor"):
                    if placed(kwargs.get("device")):
                        rec.count_direct("to_device")
            elif name == "backward":
                rec.count("backward")
                rec.backwards += 1
                rec.step()
            made = made_in(args) if torch.is_grad_enabled() else ()
            result = func(*args, **kwargs)
            if waits is not None:
                rec.counts[waits[0]]["wait_us"] += int((time.perf_counter() - waits[1]) * 1e6)
            if type(result) is torch.Tensor and result.grad_fn is not None:
                rec.watch(result, made)
            return result

    class Ops(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            rec.count("ops")
            return func(*args, **(kwargs or {}))

    original_next = dataloader._BaseDataLoaderIter.__next__
    original_from_numpy = torch.from_numpy

    @functools.wraps(original_next)
    def counted_next(self):
        batch = original_next(self)  # the end of an epoch (StopIteration) is no batch
        key = rec.count("batches")
        if key is not None:
            rec.workers[key] = self._num_workers
        return batch

    @functools.wraps(original_from_numpy)
    def counted_from_numpy(array):
        rec.count_direct("host_tensor")
        return original_from_numpy(array)

    original_show = warnings.showwarning

    def counted_show(message, category, filename, lineno, file=None, line=None):
        """A CUDA sync the device reported (`set_sync_debug_mode("warn")`): counted, not
        shown; any other warning is shown as before."""
        if _DEVICE_SYNC in str(message):
            rec.count("device_sync")
            return None
        return original_show(message, category, filename, lineno, file, line)

    class Hooks:
        def __enter__(self):
            dataloader._BaseDataLoaderIter.__next__ = counted_next
            torch.from_numpy = counted_from_numpy
            self.modes = [Crossings(), Ops()]
            for mode in self.modes:
                mode.__enter__()
            if accelerated:
                warnings.filterwarnings("always", message=f".*{_DEVICE_SYNC}")
                warnings.showwarning = counted_show
                torch.cuda.set_sync_debug_mode("warn")
            return self

        def __exit__(self, *exc):
            if accelerated:
                torch.cuda.set_sync_debug_mode("default")
                warnings.showwarning = original_show
            for mode in reversed(self.modes):
                mode.__exit__(None, None, None)
            dataloader._BaseDataLoaderIter.__next__ = original_next
            torch.from_numpy = original_from_numpy
            return False

    return Hooks()


def _signature(function, args, kwargs) -> dict[str, str]:
    """What a trace was made for, argument by argument: a tensor's dtype and shape, a
    Python value itself (a new one makes a new trace)."""
    def one(v) -> str:
        shape, dtype = getattr(v, "shape", None), getattr(v, "dtype", None)
        if shape is not None and dtype is not None:
            try:
                dims = str(list(shape))
            except (TypeError, ValueError):  # a shape of unknown rank
                dims = "[?]"
            return f"{getattr(dtype, 'name', dtype)}{dims}"
        if isinstance(v, (bool, int, float, str)) or v is None:
            return repr(v)
        return type(v).__name__
    try:
        bound = inspect.signature(function).bind(*args, **kwargs).arguments
    except (TypeError, ValueError):
        bound = {**{str(i + 1): a for i, a in enumerate(args)}, **kwargs}
    return {name: one(v) for name, v in bound.items()}


def _retrace_reason(before: dict[str, str], now: dict[str, str]) -> str:
    """Why TensorFlow traced a function again: the arguments whose signature changed."""
    changed = [f"`{k}` {before.get(k, '(none)')} -> {now.get(k, '(none)')}"
               for k in dict.fromkeys([*before, *now]) if before.get(k) != now.get(k)]
    return "; ".join(changed) or ("the same arguments: a new function object, or a value "
                                  "it closes over that changed")


def _tf_hooks(rec: Recorder):
    """Context managers that count TensorFlow's ops, runs, traces and Keras calls."""
    import tensorflow as tf
    from tensorflow.python.client import session as tf_session
    from tensorflow.python.framework import func_graph, op_callbacks

    def on_op(op_type, inputs, attrs, outputs, op_name=None, graph=None):
        if graph is None:
            rec.count("ops")
        elif not isinstance(graph, func_graph.FuncGraph):
            rec.count("graph_ops")
        return None

    original_run = tf_session.BaseSession.run
    original_gradient = tf.GradientTape.gradient

    @functools.wraps(original_run)
    def counted_run(self, fetches, feed_dict=None, *args, **kwargs):
        key = rec.count("session_run")
        if key is not None and feed_dict:
            fed = sum(getattr(_as_array(v), "nbytes", 0) for v in feed_dict.values())
            rec.counts[key]["fed_bytes"] += int(fed)
        rec.step()
        return original_run(self, fetches, feed_dict, *args, **kwargs)

    @functools.wraps(original_gradient)
    def counted_gradient(self, *args, **kwargs):
        if tf.executing_eagerly():  # in a trace it builds the gradient, it does not run it
            rec.count("backward")
        rec.step()
        return original_gradient(self, *args, **kwargs)

    original_trace = func_graph.func_graph_from_py_func

    @functools.wraps(original_trace)
    def counted_trace(name, python_func, args, kwargs, *rest, **options):
        """A `tf.function` trace: TensorFlow runs `python_func` to build a graph."""
        function = inspect.unwrap(getattr(python_func, "__func__", python_func))
        code = getattr(function, "__code__", None)
        if code is not None and rec.info(code.co_filename) is not None:
            key = (code.co_filename, code.co_firstlineno)
            facts = rec.functions.setdefault(key, {"name": function.__qualname__,
                                                   "traces": 0, "retraces": []})
            signature = _signature(function, args or (), kwargs or {})
            facts["traces"] += 1
            if key in last_signature:
                facts["retraces"].append(_retrace_reason(last_signature[key], signature))
            last_signature[key] = signature
            rec.count("traces")
        return original_trace(name, python_func, args, kwargs, *rest, **options)

    last_signature: dict = {}
    keras_originals = {}
    model_class = getattr(tf.keras, "Model", None)

    callback_class = getattr(getattr(tf.keras, "callbacks", None), "Callback", None)

    def batch_counter(key):
        """A Keras callback that charges each batch to the user's line at `key`."""
        class BatchCounter(callback_class):
            def _batch(self, batch, logs=None):
                rec.counts[key]["keras_batches"] += 1

            on_train_batch_end = on_test_batch_end = on_predict_batch_end = _batch
        return BatchCounter()

    def keras_counted(name, original):
        @functools.wraps(original)
        def counted(self, *args, **kwargs):
            key = rec.count_direct("keras_calls")  # fit's own evaluate is not the user's
            if name in ("fit", "train_on_batch"):
                rec.step()
            if key is not None and name in ("fit", "predict", "evaluate") and \
                    callback_class is not None:
                callbacks = kwargs.get("callbacks")
                if callbacks is None or isinstance(callbacks, (list, tuple)):
                    kwargs["callbacks"] = [*(callbacks or ()), batch_counter(key)]
            return original(self, *args, **kwargs)
        return counted

    class Hooks:
        def __enter__(self):
            op_callbacks.add_op_callback(on_op)
            tf_session.BaseSession.run = counted_run
            func_graph.func_graph_from_py_func = counted_trace
            tf.GradientTape.gradient = counted_gradient
            if model_class is not None:
                for name in _KERAS_METHODS:
                    original = getattr(model_class, name, None)
                    if original is not None:
                        keras_originals[name] = original
                        setattr(model_class, name, keras_counted(name, original))
            return self

        def __exit__(self, *exc):
            op_callbacks.remove_op_callback(on_op)
            tf_session.BaseSession.run = original_run
            func_graph.func_graph_from_py_func = original_trace
            tf.GradientTape.gradient = original_gradient
            for name, original in keras_originals.items():
                setattr(model_class, name, original)
            return False

    return Hooks()


def _as_array(value):
    try:
        import numpy as np

        return np.asarray(value)
    except Exception:  # noqa: BLE001  (a value numpy cannot hold: its size is unknown)
        return None


# -- running a program -----------------------------------------------------------------


@dataclass
class Command:
    """What to run: a script (or a notebook) or a module, and its arguments."""

    script: str | None
    module: str | None
    args: list[str]

    @staticmethod
    def parse(argv: list[str]) -> Command:
        """`python SCRIPT ARGS`, `SCRIPT ARGS`, `python -m MODULE ARGS` or `-m MODULE`."""
        argv = list(argv)
        if argv and os.path.basename(argv[0]).startswith("python") and \
                not argv[0].endswith(".py"):
            argv = argv[1:]
        if not argv:
            raise MeasureError("no program to run: give `-- python SCRIPT [ARGS...]`")
        if argv[0] == "-m":
            if len(argv) < 2:
                raise MeasureError("`-m` needs a module name")
            return Command(None, argv[1], argv[2:])
        if argv[0].startswith("-"):
            raise MeasureError(f"unsupported Python option '{argv[0]}': give a script or "
                               f"`-m MODULE`")
        if not Path(argv[0]).is_file():
            raise MeasureError(f"can't open file '{argv[0]}': no such file")
        return Command(argv[0], None, argv[1:])


class _IPythonStub:
    """`get_ipython()` for a notebook run outside Jupyter: magics and shell lines are
    skipped (counted nowhere), as the analysis treats them."""

    def __getattr__(self, name):
        return lambda *args, **kwargs: None


def run(command: Command, roots: list[str] | None = None,
        steps: int | None = None) -> tuple[dict, int, str]:
    """Run `command` in this process under the counters: (profile, exit status, the
    error's last line or "")."""
    script = os.path.realpath(command.script) if command.script else None
    roots = [os.path.realpath(r) for r in (roots or [os.path.dirname(script) if script
                                                    else os.getcwd()])]
    rec = Recorder(roots, steps)
    notebook_path = script if script and script.endswith(".ipynb") else None
    if notebook_path:
        from harp_ir import notebook

        joined = notebook.joined(notebook_path)
        rec.sources[notebook_path] = joined.source
        rec.cells[notebook_path] = joined.locate
    saved = (list(sys.argv), list(sys.path), os.getcwd())
    sys.argv = [command.script or command.module, *command.args]
    if script:
        sys.path.insert(0, os.path.dirname(script))
    status, error = 0, ""
    started = time.perf_counter()
    original_start = multiprocessing.process.BaseProcess.start
    processes = []

    @functools.wraps(original_start)
    def counted_start(self):  # a child's lines are not traced here: say that it ran
        processes.append(type(self).__name__)
        return original_start(self)

    multiprocessing.process.BaseProcess.start = counted_start
    try:
        sys.settrace(rec.global_trace)
        if notebook_path:
            code = compile(rec.sources[notebook_path], notebook_path, "exec")
            exec(code, {"__name__": "__main__", "__file__": notebook_path,
                        "get_ipython": _IPythonStub})
        elif script:
            runpy.run_path(script, run_name="__main__")
        else:
            runpy.run_module(command.module, run_name="__main__", alter_sys=True)
    except StopMeasure:
        pass
    except SystemExit as e:
        status = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except BaseException as e:  # noqa: BLE001  (the program's own failure: reported)
        if isinstance(e, KeyboardInterrupt):
            raise
        status = 1
        error = "".join(traceback.format_exception_only(type(e), e)).strip()
        traceback.print_exc()
    finally:
        sys.settrace(None)
        multiprocessing.process.BaseProcess.start = original_start
        for h in reversed(rec.hooks):
            h.__exit__(None, None, None)
        sys.argv, sys.path[:] = saved[0], saved[1]
        os.chdir(saved[2])
    wall = time.perf_counter() - started
    profile = {
        "harp_measure": PROFILE_VERSION,
        "command": [command.script] if command.script else ["-m", command.module],
        "args": command.args,
        "roots": [_display_name(r) for r in roots],
        "status": "stopped" if rec.stopped else ("error" if error else "exited"),
        "exit_status": status,
        "error": error,
        "steps": steps,
        "step_loop": None if rec.step_loop is None else
        {"file": rec.info(rec.step_loop[0]).name, "line": rec.step_loop[1].line},
        "wall_s": round(wall, 3),
        "accelerator": _accelerator(),
        "frameworks": sorted({"torch", "tensorflow"} - rec.pending),
        "processes": len(processes),
        **rec.profile(),
    }
    return profile, status, error


def _accelerator() -> bool:
    """Whether this machine has a device the program's framework can use."""
    if "torch" in sys.modules and sys.modules["torch"].cuda.is_available():
        return True
    if "tensorflow" in sys.modules:
        return bool(sys.modules["tensorflow"].config.list_physical_devices("GPU"))
    return False


def cost(counts: dict) -> int:
    """A line's measured cost for ranking: its waits and copies, then its ops."""
    return sum(counts.get(k, 0) for k in CROSSINGS)


def totals(profile: dict) -> dict[str, int]:
    """Every counter of a profile summed over its lines."""
    summed: Counter = Counter()
    for entry in profile["lines"]:
        summed.update(entry["counts"])
    return dict(summed)


def changes(before: dict[str, int], after: dict[str, int]) -> str:
    """`sync 1,200 -> 0; ops 26,072 -> 25,500`: the counters that differ between two runs'
    totals, or `none`."""
    return "; ".join(f"{k} {before.get(k, 0):,} -> {after.get(k, 0):,}"
                     for k in COMPARED if before.get(k, 0) != after.get(k, 0)) or "none"


def table(profile: dict, limit: int = 15) -> str:
    """The lines that cost most, as a short text table."""
    rows = sorted((ln for ln in profile["lines"] if ln["counts"]),
                  key=lambda ln: (-cost(ln["counts"]), -ln["counts"].get("ops", 0),
                                  ln["file"], ln["line"]))[:limit]
    shown = [k for k in COUNTERS if any(r["counts"].get(k) for r in rows)]
    header = ["line", "runs", *shown]
    body = [[_where(r), str(r["runs"]), *(f"{r['counts'].get(k, 0):,}" for k in shown)]
            for r in rows]
    widths = [max(len(x) for x in col) for col in zip(header, *body, strict=True)]
    out = [f"harp measure: {profile['status']} after {profile['wall_s']:.1f} s"
           + (f" ({profile['steps']} iterations of the loop at "
              f"{profile['step_loop']['file']}:{profile['step_loop']['line']})"
              if profile["status"] == "stopped" else "")]
    for row in [header, *body]:
        out.append("  ".join(x.rjust(w) if i else x.ljust(w)
                             for i, (x, w) in enumerate(zip(row, widths, strict=True))))
    return "\n".join(out)


def _where(entry: dict) -> str:
    cell = f"cell {entry['cell']}:" if entry.get("cell") is not None else ""
    return f"{entry['file']}:{cell}{entry['line']}"


def write(profile: dict, path: str) -> None:
    Path(path).write_text(json.dumps(profile, indent=1) + "\n", encoding="utf-8")
