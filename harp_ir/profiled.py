"""Hints joined to a run: `harp analyze --profile PROFILE` reads what `harp measure`
counted and settles the assumptions a run can settle.

- Each hint gets its line's measured facts ("ran 6,400 times: 6,400 waits on the device;
  the `for` loop at line 20 made 6,400 iterations").
- `loop-runs`, `hot-loop` and `every-iteration` become confirmed or denied, with the
  count as their reason: a loop whose body ran under a tenth as often as the busiest
  loop's (an epoch loop beside its batches) is not hot, a loop over parameters inside
  the step is; a statement that ran on 1 in 100 iterations does not run on every one; a
  line a finished run that started no child process never reached cost nothing. A run
  stopped by `--steps` denies nothing about a loop it entered once, nor about code it
  never reached.
- Hints are ranked by measured cost (waits and copies, then ops), and lines that cost much
  but carry no hint are listed as "measured, no hint".
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import replace
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from harp_ir.findings import Assumption, Hint
from harp_ir.measure import CROSSINGS, PROFILE_VERSION, cost

#: a hot loop makes at least HOT iterations, and at least 1/BUSY of the busiest loop's;
#: one that makes fewer than FEW, or under 1/BUSY of the busiest's, is not hot
HOT, FEW, BUSY = 10, 3, 10
#: the share of its loop's iterations a statement must run on to run "every iteration",
#: and below which it does not
EVERY, RARE = 0.5, 0.1
#: a line with this many waits and copies, and none of the hints, is listed
UNHINTED_COST = 100

_LABELS = {"sync": "waits on the device", "to_host": "copies to the host",
           "to_device": "copies to the device", "host_tensor": "tensors from host data",
           "graph_ops": "graph ops created", "session_run": "Session.run calls",
           "traces": "tf.function traces", "keras_calls": "Keras calls",
           "batches": "batches loaded", "backward": "backward passes",
           "keras_batches": "Keras batches",
           "graphs_kept": "iterations that kept an autograd graph from an earlier one"}
#: what a line with no hint is listed for: its waits and copies, and graphs it keeps alive
_LISTED = (*CROSSINGS, "graphs_kept")


class ProfileError(ValueError):
    """A profile that cannot be read; the message names the file."""


class Place(BaseModel):
    """Where a count is: the file as the profile names it, its real path, a notebook's
    cell, the line."""

    model_config = ConfigDict(extra="ignore")
    file: str
    path: str = ""
    cell: int | None = None
    line: int

    @property
    def key(self) -> tuple:
        """(real path, cell, line): how a hint's span is matched to it."""
        return os.path.realpath(self.path or self.file), self.cell, self.line


class LineCounts(Place):
    runs: int
    loops: list[int] = []
    counts: dict[str, int] = {}


class LoopCounts(Place):
    entries: int
    iterations: int


class Profile(BaseModel):
    """The part of a `harp measure` profile the hints read."""

    model_config = ConfigDict(extra="ignore")
    harp_measure: int
    status: str
    processes: int = 0  # child processes started: their lines ran untraced
    lines: list[LineCounts]
    loops: list[LoopCounts]

    @staticmethod
    def load(path: str) -> Profile:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            raise ProfileError(f"{path}: cannot read the profile: {e}") from None
        try:
            profile = Profile.model_validate(data)
        except ValidationError as e:
            first = e.errors()[0]
            where = ".".join(str(x) for x in first["loc"])
            raise ProfileError(f"{path}: not a harp measure profile: `{where}`: "
                               f"{first['msg']}") from None
        if profile.harp_measure != PROFILE_VERSION:
            raise ProfileError(f"{path}: profile version {profile.harp_measure}, this harp "
                               f"reads {PROFILE_VERSION}: measure again")
        return profile

    @property
    def finished(self) -> bool:
        """Whether the program ran to its end (not stopped by `--steps`, not failed)."""
        return self.status == "exited"


class Measured:
    """A profile indexed by place."""

    def __init__(self, profile: Profile):
        self.profile = profile
        self.lines = {e.key: e for e in profile.lines}
        self.loops = {e.key: e for e in profile.loops}
        self.files = {k[0] for k in self.lines}
        self.busiest = max((e.iterations for e in profile.loops), default=0)

    def settle(self, hint: Hint) -> Hint:
        """The hint with its measured facts and the assumptions the run settles."""
        file = os.path.realpath(hint.span.file)
        if file not in self.files:
            return hint  # the run never reached this file: it says nothing
        where = (file, hint.span.cell, hint.span.line)
        entry = self.lines.get(where)
        runs = entry.runs if entry else 0
        default_loop = self._loop(where, entry.loops[0]) if entry and entry.loops else None
        facts = [f"line {hint.span.line} ran {runs:,} time{'s' * (runs != 1)}"]
        if entry:
            facts[0] += "".join(f", {n:,} {_LABELS.get(k, k)}" for k, n in
                                entry.counts.items() if k in _LABELS and n)
        if default_loop is not None:
            facts.append(f"its loop at line {default_loop.line} made "
                         f"{default_loop.iterations:,} iterations in {default_loop.entries:,} "
                         f"run{'s' * (default_loop.entries != 1)}")
        assumptions = [self._judge(a, hint, runs, default_loop) for a in hint.assumptions]
        if runs == 0 and self.profile.finished and not self.profile.processes and \
                not any(a.status == "denied" for a in assumptions):
            assumptions.append(Assumption(
                "every-iteration", f"line {hint.span.line}", "low", "denied",
                "measured: the line never ran in a run that finished"))
        return replace(hint, assumptions=assumptions, measured="; ".join(facts))

    def _loop(self, where: tuple, line: int) -> LoopCounts | None:
        return self.loops.get((where[0], where[1], line))

    def _loop_named(self, a: Assumption, hint: Hint) -> LoopCounts | None:
        """The loop an assumption's subject names ("the `for x` loop (line 20)"), in the
        hint's file or a file its message names."""
        found = re.search(r"\(line (\d+)\)", a.subject)
        if not found:
            return None
        for span in (hint.span, *hint.related):
            loop = self._loop((os.path.realpath(span.file), span.cell), int(found[1]))
            if loop is not None:
                return loop
        return None

    def _judge(self, a: Assumption, hint: Hint, runs: int,
               default_loop: LoopCounts | None) -> Assumption:
        if a.kind not in ("loop-runs", "hot-loop", "every-iteration") or \
                a.status in ("proved", "confirmed", "denied"):
            return a
        loop = self._loop_named(a, hint) or default_loop
        if loop is None:
            return a
        said = (f"measured: the loop at line {loop.line} made {loop.iterations:,} "
                f"iterations in {loop.entries:,} run{'s' * (loop.entries != 1)}")
        complete = self.profile.finished or loop.entries >= 2
        if a.kind == "loop-runs":
            if loop.iterations:
                return replace(a, status="confirmed", reason=said)
            return replace(a, status="denied", reason=said) if complete else a
        if a.kind == "hot-loop":  # how often its body runs, beside the busiest loop's
            said += f" (the busiest loop made {self.busiest:,})"
            if loop.iterations >= HOT and loop.iterations * BUSY >= self.busiest:
                return replace(a, status="confirmed", reason=said)
            if complete and (loop.iterations * BUSY < self.busiest or loop.iterations < FEW):
                return replace(a, status="denied", reason=said)
            return a
        if loop.iterations < HOT:  # every-iteration: too few iterations to tell
            return a
        share = runs / loop.iterations
        said = f"measured: the line ran {runs:,} times in {loop.iterations:,} iterations"
        if share >= EVERY:
            return replace(a, status="confirmed", reason=said)
        if share < RARE:
            return replace(a, status="denied", reason=said)
        return a

    def rank_cost(self, hint: Hint) -> tuple:
        entry = self.lines.get((os.path.realpath(hint.span.file), hint.span.cell,
                                hint.span.line))
        if entry is None:
            return (0, 0, 0)
        return (cost(entry.counts), entry.counts.get("ops", 0), entry.runs)

    def unhinted(self, hints: list[Hint], limit: int = 10) -> list[dict]:
        """The costliest measured lines that no hint is on."""
        covered = {(os.path.realpath(h.span.file), h.span.cell, h.span.line) for h in hints}
        rows = [e for k, e in self.lines.items()
                if k not in covered and (cost(e.counts) >= UNHINTED_COST or
                                         e.counts.get("graphs_kept", 0) >= UNHINTED_COST)]
        rows.sort(key=lambda e: (-cost(e.counts), e.file, e.line))
        return [{"file": e.file, "cell": e.cell, "line": e.line, "runs": e.runs,
                 "counts": {k: n for k, n in e.counts.items() if k in _LISTED and n},
                 **describe(e)} for e in rows[:limit]]


def describe(entry: LineCounts) -> dict[str, str]:
    """`where`: `train.py:25`; `what`: `ran 6,400 times: 6,400 waits on the device`."""
    cell = f"cell {entry.cell}:" if entry.cell is not None else ""
    counted = ", ".join(f"{n:,} {_LABELS.get(k, k)}" for k, n in entry.counts.items()
                        if k in _LISTED and n)
    return {"where": f"{entry.file}:{cell}{entry.line}",
            "what": f"ran {entry.runs:,} times: {counted}"}


def apply(hints: list[Hint], path: str) -> tuple[list[Hint], list[dict]]:
    """The hints settled by the profile at `path`, costliest first, and the measured
    lines no hint covers."""
    measured = Measured(Profile.load(path))
    settled = [measured.settle(h) for h in hints]
    settled.sort(key=measured.rank_cost, reverse=True)  # stable: ties keep their order
    return settled, measured.unhinted(settled)

