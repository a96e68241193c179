"""What a rule is. A hint is one rule, and a rule lives in one module of `passes/`, named
after its flag: its spec (id, name, What / Why / Example / Fix docs, the assumptions it may
rest on), its pass, and its fix, side by side. `harp_ir.passes` lists the modules; every
registry (passes, hints, fixes, the README's tables, SARIF rules, `--list-*`) is derived
from them, and `tests/unit/test_rules.py` checks that they agree.

This module holds only the record types, so a rule module can import it without a cycle.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


def explain_command(hint_id: str) -> str:
    """Where a hint's documentation is, in what ships: the command that prints it (the
    README, in the package's metadata, has it under its anchor too)."""
    return f"harp explain {hint_id}"


@dataclass(frozen=True)
class HintSpec:
    """The documentation of a hint: `harp explain`, the README, SARIF rules."""

    id: str  # stable, never reused
    name: str
    finds: str  # What: the code it reports
    why: str  # Why: what that code costs
    refactoring: str  # Fix: what to write instead
    before: str = ""  # Example
    after: str = ""
    #: the assumption kinds (`harp_ir.findings.ASSUMPTIONS`) its hints may rest on
    assumptions: tuple[str, ...] = ()

    @property
    def anchor(self) -> str:
        """The README section's anchor (`#harp201-host-sync-in-loop`)."""
        return f"#{self.id.lower()}-{self.name}"

    @property
    def doc(self) -> str:
        return explain_command(self.id)

    def markdown(self) -> str:
        """Its documentation as Markdown: what it finds, why, the example, the fix."""
        example = (f"\n\nBefore:\n\n```python\n{self.before.rstrip()}\n```\n\nAfter:\n\n"
                   f"```python\n{self.after.rstrip()}\n```") if self.before else ""
        return (f"**{self.id} {self.name}**\n\nWhat: {self.finds}.\n\nWhy: {self.why}."
                f"{example}\n\nFix: {self.refactoring}.")


#: while a fix is dry-run (`report.fixes_tried`), the assumption kinds its safety asked about
consulted: set[str] | None = None


def established(assumption) -> bool:
    """An assumption a safe fix may rest on: proved on the IR or confirmed by the user."""
    if consulted is not None:
        consulted.add(assumption.kind)
    return assumption.status in ("proved", "confirmed")


def always_safe(hint) -> str:
    return "safe"


def always_unsafe(hint) -> str:
    return "unsafe"


@dataclass(frozen=True)
class Fix:
    """A rule's codemod. `apply(module, positions, hint)` returns the new libcst module or
    raises `codemods.Decline` with the reason; it calls `codemods.unproved(condition)` for
    each condition it needs but cannot prove (the fix is then unsafe)."""

    apply: Callable
    summary: str  # the hint table's "automatic fix" column: safe, unsafe, or when each
    rewrite: str  # the refactoring table: what the rewrite does
    declines: str  # ... and when it declines
    #: the fix's safety from the hint's assumptions alone ("safe" or "unsafe")
    safety: Callable[[object], str] = always_safe
    #: why, when `safety` says unsafe (`harp refactor` says it when it declines)
    unsafe_because: str = ""


@dataclass(frozen=True)
class Rule:
    """One pass, and the hint and fix it owns (none for a transform)."""

    flag: str  # `harp-opt --<flag>`; the module is the flag without `harp-`, `-` as `_`
    summary: str  # `--list-passes`
    run: Callable  # (op, pass_) as MLIR's PassManager calls it
    hint: HintSpec | None = None
    fix: Fix | None = None
