"""Run the analyses on Python files and turn the findings on the IR into hints."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path

from torch_mlir import ir

from harp_ir import hints
from harp_ir.analysis import Assumption, Span, span, walk
from harp_ir.diagnostics import format_mlir_error
from harp_ir.frontend.lower import lower_file, lower_program
from harp_ir.passes import ANALYSIS_PIPELINE
from harp_ir.pipeline import build

SKIP_DIRS = {".venv", "venv", "__pycache__", ".git", "node_modules", "build", "Output"}


@dataclass(frozen=True)
class Hint:
    id: str
    name: str
    span: Span
    message: str
    refactoring: str
    fix: str
    assumptions: list[Assumption] = field(default_factory=list)

    def text(self) -> str:
        return f"{self.span}: {self.id} {self.name}: {self.message}"

    def to_json(self) -> dict:
        d = asdict(self)
        d["span"] = asdict(self.span)
        d["doc"] = hints.BY_ID[self.id].anchor
        return d


def collect(module: ir.Module) -> list[Hint]:
    """The hints recorded (as `harp.hints`) on the ops of an analysed module."""
    found = []
    for op in walk(module.operation):
        if "harp.hints" not in op.attributes:
            continue
        where = span(op.location) or Span("-", 0, 0, 0, 0)
        for entry in ir.ArrayAttr(op.attributes["harp.hints"]):
            d = ir.DictAttr(entry)
            spec = hints.BY_ID[ir.StringAttr(d["id"]).value]
            found.append(Hint(
                spec.id, spec.name, where, ir.StringAttr(d["message"]).value,
                spec.refactoring, spec.fix,
                [Assumption.from_attr(a) for a in ir.ArrayAttr(d["assumptions"])]))
    return sorted(found, key=lambda h: (h.span.file, h.span.line, h.span.col, h.id))


def analyze_module(module: ir.Module) -> list[Hint]:
    build(list(ANALYSIS_PIPELINE)).run(module.operation)
    return collect(module)


def analyze_file(path: str | Path) -> list[Hint]:
    """Lower and analyse one file. Needs a current harp context."""
    return analyze_module(lower_file(path))


def analyze_paths(paths: list[str]) -> tuple[list[Hint], list[str]]:
    """Analyse files and directories; each directory is one program (its files import
    each other). Returns the hints and the error lines. Needs a current harp context."""
    found, errors = [], []
    for arg in map(Path, paths):
        if arg.is_dir():
            files, root = python_files([str(arg)])[0], arg
        elif arg.is_file():
            files, root = [arg], arg.parent
        else:
            errors.append(f"{arg}: error: no such file or directory")
            continue
        module, failed = lower_program(files, root)
        errors += [str(e) for e in failed]
        try:
            found += analyze_module(module)
        except ir.MLIRError as e:
            errors += format_mlir_error(e, str(arg))
    return found, errors


def python_files(paths: list[str]) -> tuple[list[Path], list[str]]:
    """The .py files under `paths` (sorted), and the paths that do not exist."""
    files, missing = [], []
    for p in map(Path, paths):
        if p.is_dir():
            files += sorted(f for f in p.rglob("*.py")
                            if not SKIP_DIRS.intersection(f.relative_to(p).parts[:-1]))
        elif p.is_file():
            files.append(p)
        else:
            missing.append(str(p))
    return files, missing
