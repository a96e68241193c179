"""--harp-dataloader-serial (HARP501): a `DataLoader` without worker processes or pinned
memory in a training program.

Finds: `torch.utils.data.DataLoader(...)` with no `num_workers` (or `num_workers=0`), or
without `pin_memory=True`, in a module that trains (calls `backward()`): batches are then
loaded in the training process, serially with the steps, and copied from pageable memory.

What it rests on, from the shared facts: the program places tensors on an accelerator
(in a CPU-only file pinned memory is useless and workers compete with the training for
the same cores: high risk); loading costs enough to pay for workers (a torchvision
dataset or per-sample `transform`s decode images in Python; an in-memory `TensorDataset`
is indexed in microseconds, and a dataset harp cannot see into may cost anything: high
risk); workers are missing, not only
pinned memory (pinned memory alone speeds up the copy a little: high risk); the
arguments are all visible (`**kwargs` may set both: high risk); `num_workers=0` was not
chosen on purpose (high risk). Only hints with none of the high-risk ones reach the
default report.
"""

from __future__ import annotations

from harp_ir import callgraph
from harp_ir.analysis import (
    Assumption,
    accelerator,
    call_arguments,
    constant_value,
    definition,
    enclosing_scope,
    record_hint,
    string_attr,
    walk,
)
from harp_ir.rules import HintSpec, Rule

HINT = "HARP501"
LOADER = "torch.utils.data.DataLoader"
IN_MEMORY = ("torch.utils.data.TensorDataset",)


WRAPPERS = ("torch.utils.data.Subset", "torch.utils.data.ConcatDataset")


def dataset_cost(value, scope, depth: int = 0) -> str:
    """What loading one example of the dataset `value` costs, as far as the code shows:
    "memory" (a `TensorDataset`: tensors indexed in microseconds), "decode" (a torchvision
    dataset, or one given per-sample `transform`s: images decoded and converted in
    Python), or "unknown" (a dataset the caller passes in, or one harp cannot see into)."""
    made = definition(value, scope)
    if made is None or made.name != "host.call" or depth > 3:
        return "unknown"
    qualname = string_attr(made, "qualname")
    args = call_arguments(made)
    if qualname in IN_MEMORY:
        return "memory"
    if qualname in WRAPPERS and args:
        return dataset_cost(args[0][1], scope, depth + 1)
    if qualname.startswith("torchvision.datasets.") or any(
            k.startswith("transform") for k, _ in args):
        return "decode"
    if not qualname and any(dataset_cost(v, scope, depth + 1) == "decode" for _, v in args):
        return "decode"  # a dataset class of the program wrapping a decoding one
    return "unknown"


def run(module, pass_=None) -> None:
    ops = list(walk(module))
    if not any(o.name == "host.call" and string_attr(o, "method") == "backward" for o in ops):
        return
    for op in ops:
        if op.name != "host.call" or string_attr(op, "qualname") != LOADER:
            continue
        args = call_arguments(op)
        kw = dict(args)
        workers = kw.get("num_workers")
        missing = []
        if workers is None or constant_value(workers) == 0:
            missing.append("`num_workers`")
        if "pin_memory" not in kw or constant_value(kw["pin_memory"]) is False:
            missing.append("`pin_memory=True`")
        if not missing:
            continue
        message = (f"this DataLoader feeds a training loop without {' and '.join(missing)}: "
                   f"batches are prepared serially with the training steps; set "
                   f"`num_workers` (e.g. the number of cores) and `pin_memory=True`")
        assumptions = [
            Assumption("picklable-dataset", "", "low", "speculated",
                       "the dataset can be sent to worker processes"),
            accelerator(op),
        ]
        if any(k == "**" for k, _ in args):
            assumptions.append(Assumption(
                "loading-cost", "", "high", "speculated",
                "`**` arguments may set num_workers and pin_memory (as `**kwargs` built "
                "for an accelerator usually do)"))
        elif "`num_workers`" not in missing:
            assumptions.append(Assumption(
                "loading-cost", "", "high", "speculated",
                "workers are set; pinned memory alone speeds up only the copy to the device"))
        elif (cost := dataset_cost(args[0][1] if args and not args[0][0] else
                                   kw.get("dataset", op.operands[0]),
                                   enclosing_scope(op))) == "memory":
            assumptions.append(Assumption(
                "loading-cost", "", "high", "speculated",
                "the dataset is tensors in memory (a TensorDataset): a batch costs "
                "microseconds to gather, workers would mostly add start-up and copies"))
        elif cost == "unknown":
            assumptions.append(Assumption(
                "loading-cost", "", "high", "speculated",
                "what loading an example costs is not visible here (a dataset from a "
                "caller, an iterable or a pre-processed one): workers may not pay off"))
        elif workers is not None:
            assumptions.append(Assumption(
                "loading-cost", "", "high", "speculated",
                "`num_workers=0` is set explicitly: assumed not needed (determinism, "
                "memory, a dataset that cannot be pickled)"))
        loops = callgraph.loops_iterating(op.result)
        if loops == []:
            assumptions.append(Assumption(
                "loading-cost", "", "high", "speculated",
                "nothing in the program iterates this loader"))
        elif loops and all(callgraph.evaluation_loop(loop) for loop in loops):
            assumptions.append(Assumption(
                "loading-cost", "", "high", "speculated",
                "the loader feeds only evaluation passes (its loops run no backward or "
                "optimizer step): loaded once, or once per epoch, not on every training step"))
        record_hint(op, HINT, message, assumptions)


RULE = Rule(
    flag="harp-dataloader-serial",
    summary="Find DataLoaders without workers or pinned memory (HARP501)",
    run=run,
    hint=HintSpec(
        id="HARP501",
        name="dataloader-serial",
        finds="`DataLoader` without workers or pinned memory in a training program",
        why="loading and collating batches runs in the training process between steps, and "
            "copies to the device from pageable memory",
        refactoring="`num_workers`, `pin_memory`",
        before="loader = DataLoader(ds, batch_size=64)\n",
        after="loader = DataLoader(ds, batch_size=64, num_workers=4, pin_memory=True)\n",
        assumptions=("accelerator", "picklable-dataset", "loading-cost"),
    ),
)
