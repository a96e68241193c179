"""harp's passes, one module per pass, named after its flag (`--harp-host-sync-in-loop` is
`host_sync_in_loop.py`). The registry is data, so `harp-opt --list-passes` imports nothing.

Each pass module defines `run(op, pass_)`, the callable MLIR's PassManager runs.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

#: flag -> one-line description
PASSES: dict[str, str] = {
    "harp-graph-built-in-loop": "Find TF1 graph construction in loops that run it (HARP101)",
    "harp-host-sync-in-loop": "Find tensors synced to the host inside loops (HARP201)",
    "harp-transfer-in-loop": "Find loop-invariant host-to-device transfers in loops (HARP202)",
    "harp-loop-invariant": "Find pure tensor computations with loop-invariant inputs (HARP301)",
    "harp-missing-no-grad": "Find PyTorch inference loops run with autograd on (HARP303)",
    "harp-concat-in-loop": "Find tensors and arrays grown by concatenation in loops (HARP402)",
    "harp-zero-grad": "Find gradients zeroed in place instead of released (HARP502)",
}

#: the passes `harp analyze` runs, in order
ANALYSIS_PIPELINE: tuple[str, ...] = tuple(PASSES)


def module_name(flag: str) -> str:
    return "harp_ir.passes." + flag.removeprefix("harp-").replace("-", "_")


def load(flag: str) -> Callable:
    """The `run` callable of the pass registered as `flag`."""
    if flag not in PASSES:
        raise KeyError(flag)
    return importlib.import_module(module_name(flag)).run
