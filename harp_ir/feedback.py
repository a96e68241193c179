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
from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from harp_ir import hints as hint_catalogue
from harp_ir import notebook
from harp_ir.findings import ASSUMPTIONS, Assumption
from harp_ir.frontend.source import FrontendError, read_source

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
        for hint_id in sorted(self.select | self.ignore):
            _check_id(hint_id)
        for spec in sorted(self.assume | self.deny):
            _check_assumption(spec)

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
        if hint.fix_if_confirmed and all(a.status in ("proved", "confirmed") for a in judged
                                         if a.kind in hint.fix_rests_on):
            return replace(hint, assumptions=judged, fix=hint.fix_if_confirmed)
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


def _check_id(hint_id: str) -> str:
    if hint_id.strip().upper() not in hint_catalogue.BY_ID:
        raise ConfigError(f"unknown hint id '{hint_id}' (see `harp --list-hints`)")
    return hint_id.strip().upper()


def _check_assumption(spec: str) -> str:
    if spec.split(":", 1)[0] not in ASSUMPTIONS:
        raise ConfigError(f"unknown assumption kind '{spec.split(':', 1)[0]}'; expected "
                          f"one of {', '.join(ASSUMPTIONS)} (optionally `kind:subject`)")
    return spec


class Config(BaseModel):
    """What `[tool.harp]` (or harp.toml) may say: unknown keys and wrong types are errors,
    not silently ignored settings."""

    model_config = ConfigDict(extra="forbid", strict=True)

    level: Literal["conservative", "default", "aggressive"] = "default"
    select: list[str] = []
    ignore: list[str] = []
    assume: list[str] = []
    deny: list[str] = []
    exclude: list[str] = []  # globs of files not to analyse or refactor, as `--exclude`
    trace: dict = {}  # the trace spec: checked by `harp analyze --trace` (trace.py)

    @field_validator("select", "ignore")
    @classmethod
    def _known_ids(cls, ids: list[str]) -> list[str]:
        return [_checked(_check_id, i) for i in ids]

    @field_validator("assume", "deny")
    @classmethod
    def _known_kinds(cls, specs: list[str]) -> list[str]:
        return [_checked(_check_assumption, s) for s in specs]


def _checked(check, value: str) -> str:
    try:
        return check(value)
    except ConfigError as e:
        raise ValueError(str(e)) from None


def validate_config(table: object, path: Path) -> dict:
    """The table as a checked dict; a ConfigError naming the file and the key if not."""
    try:
        return Config.model_validate(table).model_dump(exclude_unset=True)
    except ValidationError as e:
        raise ConfigError(f"{path}: error: {schema_errors(e, 'tool.harp')}") from None


def schema_errors(error: ValidationError, top: str) -> str:
    """A schema library's errors as one line: each key's dotted path (list positions
    counted from 1, as a reader counts `[[entry]]` tables) and what is wrong with it."""
    def where(loc: tuple) -> str:
        return ".".join(f"[{p + 1}]" if isinstance(p, int) else str(p)
                        for p in loc).replace(".[", "[") or top

    return "; ".join(f"`{where(err['loc'])}`: {err['msg'].removeprefix('Value error, ')}"
                     for err in error.errors())


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
            except (tomllib.TOMLDecodeError, UnicodeDecodeError, OSError) as e:
                raise ConfigError(f"{path}: error: cannot read: {e}") from None
            tool = data.get("tool", {}) if name == "pyproject.toml" else {}
            if not isinstance(tool, dict):
                continue  # `tool = "x"`: no [tool.harp] table here
            table = data if name == "harp.toml" else tool.get("harp")
            if table is not None:
                return validate_config(table, path)
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
            return (notebook.source_of(notebook.read(file).cells[cell - 1]) or "").splitlines()
        return read_source(file).splitlines()
    except (OSError, IndexError, notebook.NotebookError, FrontendError):
        return []
