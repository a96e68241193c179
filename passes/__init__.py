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
    "harp-retracing": "Find tf.functions retraced in loops (HARP102)",
    "harp-eager-step": "Find TF2 training steps run eagerly in loops (HARP103)",
    "harp-split-session-runs": "Find several Session.run calls per iteration (HARP104)",
    "harp-host-sync-in-loop": "Find tensors synced to the host inside loops (HARP201)",
    "harp-transfer-in-loop": "Find loop-invariant host-to-device transfers in loops (HARP202)",
    "harp-feed-invariant": "Find loop-invariant feed_dict values (HARP203)",
    "harp-graph-round-trip": "Find tensor -> host -> tensor round trips in loops (HARP204)",
    "harp-host-random-to-device":
        "Find host-drawn random numbers copied to the device in loops (HARP205)",
    "harp-loop-invariant": "Find pure tensor computations with loop-invariant inputs (HARP301)",
    "harp-redundant-call": "Find the same pure computation evaluated twice (HARP302)",
    "harp-missing-no-grad": "Find PyTorch inference loops run with autograd on (HARP303)",
    "harp-elementwise-loop": "Find Python loops over tensor elements (HARP401)",
    "harp-concat-in-loop": "Find tensors and arrays grown by concatenation in loops (HARP402)",
    "harp-per-sample-call": "Find models called one example at a time in loops (HARP403)",
    "harp-dataloader-serial": "Find DataLoaders without workers or pinned memory (HARP501)",
    "harp-zero-grad": "Find gradients zeroed in place instead of released (HARP502)",
    "harp-rebuilt-in-loop": "Find optimizers and models constructed every step (HARP503)",
    "harp-lower-graph": "Lower catalogued graph computations to torch and tf dialect ops",
    "harp-graph-facts": "Record the op count, FLOPs and purity of traced graphs on their calls",
}

#: passes that rewrite or annotate the IR rather than find hints
TRANSFORMS = ("harp-lower-graph", "harp-graph-facts")
#: the passes `harp analyze` runs, in order
ANALYSIS_PIPELINE: tuple[str, ...] = tuple(p for p in PASSES if p not in TRANSFORMS)


def module_name(flag: str) -> str:
    return "harp_ir.passes." + flag.removeprefix("harp-").replace("-", "_")


def load(flag: str) -> Callable:
    """The `run` callable of the pass registered as `flag`."""
    if flag not in PASSES:
        raise KeyError(flag)
    return importlib.import_module(module_name(flag)).run
