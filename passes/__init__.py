"""harp's rules, one module per pass, named after its flag (`--harp-host-sync-in-loop` is
`host_sync_in_loop.py`). Each module defines `RULE` (`harp_ir.rules.Rule`): the pass's
`run(op, pass_)`, and for a hint pass its spec and fix. Every registry is derived here.

A new hint is one module listed in `MODULES` plus its tests and fixtures.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable

from harp_ir.rules import Rule

#: the rule modules: the hint passes in `harp analyze`'s order, then the transforms
MODULES: tuple[str, ...] = (
    "graph_built_in_loop", "retracing", "eager_step", "split_session_runs",
    "host_sync_in_loop", "transfer_in_loop", "feed_invariant", "graph_round_trip",
    "host_random_to_device", "tensor_from_tensors", "memory_converted", "loop_invariant",
    "redundant_call",
    "missing_no_grad", "unused_weight_gradients", "discarded_outputs",
    "elementwise_loop", "concat_in_loop", "per_sample_call", "keras_call_in_loop",
    "parameter_loop",
    "dataloader_serial",
    "zero_grad", "rebuilt_in_loop", "graph_kept_by_accumulator", "sample_permutes_population",
    "lower_graph", "graph_facts",
)


def module_name(flag: str) -> str:
    return "harp_ir.passes." + flag.removeprefix("harp-").replace("-", "_")


def flag_of(module: str) -> str:
    return "harp-" + module.replace("_", "-")


@functools.cache
def rules() -> dict[str, Rule]:
    """flag -> rule, in pipeline order."""
    return {flag_of(m): importlib.import_module("harp_ir.passes." + m).RULE
            for m in MODULES}


def hint_rules() -> list[Rule]:
    return [r for r in rules().values() if r.hint is not None]


def rule_for(hint_id: str) -> Rule | None:
    return next((r for r in hint_rules() if r.hint.id == hint_id), None)


def passes() -> dict[str, str]:
    """flag -> one-line description (`--list-passes`)."""
    return {flag: r.summary for flag, r in rules().items()}


def analysis_pipeline() -> tuple[str, ...]:
    """The passes `harp analyze` runs, in order: those that report hints."""
    return tuple(r.flag for r in hint_rules())


def load(flag: str) -> Callable:
    """The `run` callable of the pass registered as `flag`."""
    return rules()[flag].run
