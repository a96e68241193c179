"""MLIR diagnostics as compiler-style lines: `file:line:col: error: message`."""

from __future__ import annotations

from torch_mlir import ir

from harp_ir.analysis import span


def format_location(location: ir.Location, fallback_file: str = "-") -> str:
    where = span(location)
    if where is None:
        return fallback_file
    name = where.file if where.file not in ("", "-", "<unknown>") else fallback_file
    return f"{name}:{where.line}:{where.col}"


def format_mlir_error(error: ir.MLIRError, fallback_file: str = "-") -> list[str]:
    """One line per diagnostic of `error` (notes indented after their error)."""
    lines = []
    for diag in error.error_diagnostics:
        lines.append(f"{format_location(diag.location, fallback_file)}: error: {diag.message}")
        for note in diag.notes:
            lines.append(f"{format_location(note.location, fallback_file)}: note: "
                         f"{note.message}")
    if not lines:
        lines.append(f"{fallback_file}: error: {error.message}")
    return lines
