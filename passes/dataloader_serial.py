"""--harp-dataloader-serial (HARP501): a `DataLoader` without worker processes or pinned
memory in a training program.

Finds: `torch.utils.data.DataLoader(...)` with no `num_workers` (or `num_workers=0`), or
without `pin_memory=True`, in a module that trains (calls `backward()`): batches are then
loaded in the training process, serially with the steps, and copied from pageable memory.

Assumes: the dataset is picklable and loading is a noticeable part of a step.
"""

from __future__ import annotations

from harp_ir.analysis import (
    Assumption,
    call_arguments,
    constant_value,
    record_hint,
    string_attr,
    walk,
)

HINT = "HARP501"
LOADER = "torch.utils.data.DataLoader"


def run(module, pass_=None) -> None:
    ops = list(walk(module))
    if not any(o.name == "host.call" and string_attr(o, "method") == "backward" for o in ops):
        return
    for op in ops:
        if op.name != "host.call" or string_attr(op, "qualname") != LOADER:
            continue
        kw = dict(call_arguments(op))
        missing = []
        if "num_workers" not in kw or constant_value(kw["num_workers"]) == 0:
            missing.append("`num_workers`")
        if "pin_memory" not in kw or constant_value(kw["pin_memory"]) is False:
            missing.append("`pin_memory=True`")
        if not missing:
            continue
        message = (f"this DataLoader feeds a training loop without {' and '.join(missing)}: "
                   f"batches are prepared serially with the training steps; set "
                   f"`num_workers` (e.g. the number of cores) and `pin_memory=True`")
        record_hint(op, HINT, message, [
            Assumption("picklable-dataset", "", "low", "speculated",
                       "the dataset can be sent to worker processes"),
            Assumption("accelerator", "", "medium", "speculated",
                       "pinned memory pays off when batches go to a GPU"),
        ])
