"""What `harp analyze` prints (`--output-format`): one line a hint by default, as the
linters its users run do; the source with the span underlined and everything the hint rests
on with `full`; JSON and SARIF for tools; GitHub workflow commands, which annotate a pull
request's diff. Colour only on a terminal, never under NO_COLOR."""

from __future__ import annotations

import json
import os
from collections import Counter

from harp_ir import notebook, sarif

FORMATS = ("concise", "full", "json", "sarif", "github")
#: what a safe fix is marked with in the one-line formats (ruff's mark)
FIXABLE = "[*]"


class Style:
    """ANSI styles, or none: on a terminal unless NO_COLOR is set (no-color.org)."""

    def __init__(self, enabled: bool):
        self.enabled = enabled

    @classmethod
    def for_stream(cls, stream) -> Style:
        return cls(bool(getattr(stream, "isatty", lambda: False)())
                   and not os.environ.get("NO_COLOR"))

    def _wrap(self, code: str, text: str) -> str:
        return f"\033[{code}m{text}\033[0m" if self.enabled else text

    def bold(self, text: str) -> str:
        return self._wrap("1", text)

    def id(self, text: str) -> str:
        return self._wrap("1;31", text)

    def dim(self, text: str) -> str:
        return self._wrap("2", text)

    def accent(self, text: str) -> str:
        return self._wrap("36", text)


def line(h, style: Style, measured: bool = True) -> str:
    """`path:line:col: HARP201 host-sync-in-loop: message [*] (measured: ...)`."""
    mark = f" {style.accent(FIXABLE)}" if h.fix == "safe" else ""
    measured = f" {style.dim(f'(measured: {h.measured})')}" if h.measured and measured \
        else ""
    return f"{style.bold(str(h.span))}: {style.id(h.id)} {h.name}: {h.message}{mark}{measured}"


def summary(found: list, style: Style) -> str:
    """`3 hints: HARP201 host-sync-in-loop x2, ...; 2 fixable with harp refactor --apply`."""
    counts = Counter(h.id for h in found)
    names = {h.id: h.name for h in found}
    text = f"{len(found)} hint(s): " + ", ".join(
        f"{i} {names[i]} x{n}" for i, n in sorted(counts.items()))
    fixable = sum(h.fix == "safe" for h in found)
    if fixable:
        text += f"; {fixable} {style.accent(FIXABLE)} fixable with `harp refactor --apply`"
    return text


def source_lines(span) -> list[str] | None:
    """The lines of the file (or the notebook cell) a span is in; None if unreadable."""
    from harp_ir.frontend.source import FrontendError, read_source

    try:
        if span.cell is not None:
            cells = notebook.read(span.file).cells
            text = notebook.source_of(cells[span.cell - 1]) if span.cell <= len(cells) \
                else None
            return text.splitlines() if text is not None else None
        return read_source(span.file).splitlines()
    except (OSError, FrontendError, notebook.NotebookError, ValueError):
        return None


def full(h, style: Style) -> list[str]:
    """The hint's line, its source with the span underlined, and what it rests on."""
    out = [line(h, style, measured=False)]  # the facts get their own line below
    lines = source_lines(h.span)
    if lines and 1 <= h.span.line <= len(lines):
        first = max(1, h.span.line - 1)
        last = min(len(lines), h.span.end_line if h.span.end_line >= h.span.line
                   else h.span.line, h.span.line + 4)
        width = len(str(last))
        gutter = style.dim(" " * width + " |")
        out.append(gutter)
        for n in range(first, last + 1):
            text = lines[n - 1]
            out.append(style.dim(f"{n:>{width}} |") + f" {text}")
            if h.span.line <= n <= h.span.end_line:
                start = h.span.col if n == h.span.line else len(text) - len(text.lstrip()) + 1
                end = h.span.end_col if n == h.span.end_line else len(text) + 1
                pad = "".join(c if c == "\t" else " " for c in text[:start - 1])
                out.append(f"{gutter} {pad}{style.id('^' * max(1, end - start))}")
        out.append(gutter)
    for a in h.assumptions:
        out.append(f"  = assumes: {a.describe()}")
    fix = {"safe": "safe: `harp refactor --apply` applies it",
           "unsafe": "unsafe: `harp refactor --apply --unsafe-fixes` applies it",
           "none": "by hand"}.get(h.fix, h.fix)
    out.append(f"  = fix ({fix}): {h.refactoring}")
    if h.measured:
        out.append(f"  = measured: {h.measured}")
    for place in h.related:
        out.append(f"  = see also: {place}")
    out.append(f"  = docs: harp explain {h.id}")
    return out


def _escape(text: str, property_value: bool = False) -> str:
    """GitHub's escaping of a workflow command's message (or property value)."""
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return text.replace(":", "%3A").replace(",", "%2C") if property_value else text


def github(h) -> str:
    """A `::warning` workflow command: an annotation on the span in a pull request."""
    mark = " [safe fix: harp refactor --apply]" if h.fix == "safe" else ""
    return github_command("warning", h.span, f"{h.id} {h.name}", h.message + mark)


def github_command(kind: str, span, title: str, message: str) -> str:
    """A workflow command (`::notice`, `::warning`, `::error`) at a span, for a pull
    request's diff (a notebook cell's lines are not the file's: the cell goes in the title)."""
    where = {"file": span.file, "line": span.line, "col": span.col,
             "endLine": span.end_line, "endColumn": span.end_col, "title": title}
    if span.cell is not None:
        where = {"file": span.file, "title": f"{title} (cell {span.cell}, line {span.line})"}
    props = ",".join(f"{k}={_escape(str(v), True)}" for k, v in where.items())
    return f"::{kind} {props}::{_escape(message)}"


def error_place(error: str) -> tuple[str, int, int, str] | None:
    """(path, line, column, message) of an error line `path:line:col: error: message`;
    None for one without a line and column (a notebook's cell, a usage error)."""
    parts = error.split(":", 3)
    if len(parts) == 4 and parts[1].isdigit() and parts[2].isdigit():
        return (parts[0], int(parts[1]), int(parts[2]),
                parts[3].removeprefix(" error: ").strip())
    return None


def github_error(error: str) -> str:
    """An error line as an `::error` workflow command, at its place when it has one."""
    place = error_place(error)
    if place is None:
        return f"::error::{_escape(error)}"
    path, row, col, message = place
    return f"::error file={_escape(path, True)},line={row},col={col}::{_escape(message)}"


def render(fmt: str, found: list, errors: list[str], level: str, out, err,
           unhinted: list[dict] | None = None) -> None:
    """Write the hints (to `out`) and the errors and summary (to `err`) in format `fmt`;
    `unhinted`: with a profile, the measured lines that cost much and have no hint."""
    if fmt == "json":
        report = {"version": 1, "level": level, "hints": [h.to_json() for h in found],
                  "errors": errors}
        if unhinted is not None:
            report["measured_no_hint"] = unhinted
        json.dump(report, out, indent=2)
        out.write("\n")
        return
    if fmt == "sarif":
        json.dump(sarif.report(found, errors), out, indent=2)
        out.write("\n")
        return
    if fmt == "github":
        for h in found:
            out.write(github(h) + "\n")
        for e in errors:
            out.write(github_error(e) + "\n")
        return
    style = Style.for_stream(out)
    for h in found:
        if fmt == "full":
            out.write("\n".join(full(h, style)) + "\n\n")
        else:
            out.write(line(h, style) + "\n")
    for row in unhinted or ():
        out.write(f"{style.bold(row['where'])}: measured, no hint: {row['what']}\n")
    for e in errors:
        err.write(e + "\n")
    if found:
        err.write(summary(found, Style.for_stream(err)) + "\n")

