"""Conditioned feedback: which hints a user sees, decided by the assumptions they rest on.

Every hint carries assumptions, each with a risk (low, medium, high) and a status
(proved, speculated). The user chooses a level of aggressiveness and can confirm or deny
assumptions, by kind (`pure`) or by kind and subject (`tensor:loss`), on the command line
(`--assume`, `--deny`) or in `[tool.harp]` of `pyproject.toml` / `harp.toml`:

    [tool.harp]
    level = "conservative"
    assume = ["tensor:batch"]
    deny = ["no-alias"]
    ignore = ["HARP502"]

- conservative: only hints whose assumptions are all proved, confirmed or low-risk;
- default: medium-risk speculation allowed;
- aggressive: everything.

A denied assumption removes the hints that need it; a confirmed one no longer counts
against the level. `# harp: ignore[HARP201]` (or a bare `# harp: ignore`) on a line
silences hints reported on that line.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path

from harp_ir import notebook
from harp_ir.analysis import Assumption
from harp_ir.frontend.lower import FrontendError, read_source

LEVELS = {"conservative": ("low",), "default": ("low", "medium"),
          "aggressive": ("low", "medium", "high")}
_IGNORE = re.compile(r"#\s*harp:\s*ignore(?:\[(?P<ids>[A-Z0-9,\s]+)\])?")


class ConfigError(ValueError):
    pass


@dataclass
class Feedback:
    level: str = "default"
    assume: set[str] = field(default_factory=set)
    deny: set[str] = field(default_factory=set)
    select: set[str] = field(default_factory=set)  # empty: every hint
    ignore: set[str] = field(default_factory=set)

    def __post_init__(self):
        if self.level not in LEVELS:
            raise ConfigError(f"unknown level '{self.level}'; expected one of "
                              f"{', '.join(LEVELS)}")

    @staticmethod
    def _matches(specs: set[str], a: Assumption) -> bool:
        return a.kind in specs or f"{a.kind}:{a.subject}" in specs

    def judge(self, a: Assumption) -> Assumption:
        """The assumption with the user's answer applied to its status."""
        if self._matches(self.deny, a):
            return replace(a, status="denied")
        if self._matches(self.assume, a):
            return replace(a, status="confirmed")
        return a

    def admits(self, hint) -> object | None:
        """The hint with judged assumptions, or None when the user's answers or level
        exclude it."""
        if hint.id in self.ignore or (self.select and hint.id not in self.select):
            return None
        judged = [self.judge(a) for a in hint.assumptions]
        allowed = LEVELS[self.level]
        for a in judged:
            if a.status == "denied":
                return None
            if a.status not in ("proved", "confirmed") and a.risk not in allowed:
                return None
        return replace(hint, assumptions=judged)

    def merged(self, other: dict) -> Feedback:
        """This feedback (from the command line) over a config table."""
        def ids(key):
            return {i.strip().upper() for i in other.get(key, [])}

        return Feedback(
            level=self.level if self.level != "default" else other.get("level", "default"),
            assume=self.assume | set(other.get("assume", [])),
            deny=self.deny | set(other.get("deny", [])),
            select=self.select or ids("select"),
            ignore=self.ignore | ids("ignore"))


def load_config(start: Path) -> dict:
    """`[tool.harp]` of the nearest pyproject.toml, or the nearest harp.toml (whose top
    level is the table), searching upward from `start`."""
    here = start.resolve()
    for folder in [here, *here.parents] if here.is_dir() else here.parents:
        for name in ("harp.toml", "pyproject.toml"):
            path = folder / name
            if not path.is_file():
                continue
            try:
                data = tomllib.loads(path.read_text(encoding="utf-8"))
            except tomllib.TOMLDecodeError as e:
                raise ConfigError(f"{path}: error: {e}") from None
            table = data if name == "harp.toml" else data.get("tool", {}).get("harp")
            if table is not None:
                return table
    return {}


def ignored_on_line(line: str, hint_id: str) -> bool:
    m = _IGNORE.search(line)
    if m is None:
        return False
    ids = m["ids"]
    return ids is None or hint_id in {i.strip() for i in ids.split(",")}


def filter_hints(hints: list, feedback: Feedback,
                 sources: dict[str, list[str]] | None = None) -> list:
    """Apply the user's feedback and the inline `# harp: ignore` comments (read from
    `sources` where given, else from the files)."""
    lines: dict = dict(sources or {})
    kept = []
    for h in hints:
        judged = feedback.admits(h)
        if judged is None:
            continue
        key = h.span.file if h.span.cell is None else (h.span.file, h.span.cell)
        if key not in lines:
            lines[key] = _source_lines(h.span.file, h.span.cell)
        source = lines[key]
        if 0 < h.span.line <= len(source) and ignored_on_line(source[h.span.line - 1], h.id):
            continue
        kept.append(judged)
    return kept


def _source_lines(file: str, cell: int | None) -> list[str]:
    """The lines a span's line numbers count: a file's, or a notebook cell's."""
    try:
        if cell is not None:
            return notebook.read(file).cells[cell - 1].source.splitlines()
        return read_source(file).splitlines()
    except (OSError, IndexError, notebook.NotebookError, FrontendError):
        return []
