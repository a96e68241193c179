"""harp's passes, one module per pass, named after its flag (`--harp-host-sync-in-loop` is
`host_sync_in_loop.py`). The registry is data, so `harp-opt --list-passes` imports nothing.

Each pass module defines `run(op, pass_)`, the callable MLIR's PassManager runs.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

#: flag -> one-line description
PASSES: dict[str, str] = {
    "harp-host-sync-in-loop": "Find tensors synced to the host inside loops (HARP201)",
}

#: the passes `harp analyze` runs, in order
ANALYSIS_PIPELINE: tuple[str, ...] = ("harp-host-sync-in-loop",)


def module_name(flag: str) -> str:
    return "harp_ir.passes." + flag.removeprefix("harp-").replace("-", "_")


def load(flag: str) -> Callable:
    """The `run` callable of the pass registered as `flag`."""
    if flag not in PASSES:
        raise KeyError(flag)
    return importlib.import_module(module_name(flag)).run
