"""Several files lowered as one program into one module: imports between them resolve to
what the imported module binds."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
from torch_mlir import ir

from harp_ir.frontend.facts import UNKNOWN, Fact
from harp_ir.frontend.lower import Lowerer, lower_settled
from harp_ir.frontend.source import FrontendError, internal_error, parse, read_file


class Program:
    """Several files lowered as one program, into one builtin.module: imports between them
    resolve to what the imported module binds (functions with their return facts and
    effect summaries, classes, tensors...)."""

    def __init__(self, files: dict[str, Path], root: Path | None = None):
        self.files = files  # dotted module name (a notebook's ends in [ipynb]) -> path
        self.root = root  # where a module the files import and were not given is looked up
        #: the package `root` is, when it holds an `__init__.py` (`playground`, or
        #: `pkg.sub` within a package): its files import each other by that full name
        #: (`from playground.policies.memory import ReplayMemory`), their names omit it
        self.package = _package_of(root)
        self.exports: dict[str, dict[str, Fact]] = {}
        self.errors: list[FrontendError] = []
        self.module = ir.Module.create(loc=ir.Location.unknown())
        self._busy: set[str] = set()
        self._found = 0  # modules added from `root` on import
        self._absent: set[str] = set()  # names not found there
        self._all: dict[str, tuple[str, ...]] = {}  # a module's constant `__all__`
        #: the text of a file as an editor holds it, read instead of the file (`harp server`)
        self.unsaved: dict[str, str] = {}
        self._sources: dict[str, str] = {}  # what was lowered, by file name

    @staticmethod
    def from_paths(paths: list[Path], root: Path | None = None) -> Program:
        files = {}
        for path in paths:
            rel = path.relative_to(root) if root is not None else Path(path.name)
            parts = list(rel.with_suffix("").parts)
            if parts[-1] == "__init__" and len(parts) > 1:
                parts.pop()
            name = ".".join(parts)
            if rel.suffix == ".ipynb":  # not importable: a name no import can spell, so
                name += "[ipynb]"       # `train.ipynb` beside `train.py` is not replaced
            files[name] = path
        return Program(files, root)

    def source_of(self, filename: str) -> str:
        """The text the program read for `filename` (a notebook's joined cells)."""
        if filename not in self._sources:
            self._sources[filename] = read_file(Path(filename))
        return self._sources[filename]

    def lower_files(self, paths) -> None:
        """Lower the program's files among `paths` (lowering may look others up)."""
        wanted = {str(p) for p in paths}
        for name, path in list(self.files.items()):
            if str(path) in wanted:
                self.lower(name)

    def lower_all(self) -> ir.Module:
        for name in list(self.files):  # lowering may add the modules it imports
            self.lower(name)
        return self.module

    def key(self, name: str) -> str:
        """The name the program knows a module by: `playground.policies.memory` is
        `policies.memory` when the analysed folder is the package `playground`."""
        if self.package and name.startswith(self.package + "."):
            inner = name[len(self.package) + 1:]
            if inner in self.files or self._look_up(inner.split(".")):
                return inner
        return name

    def lower(self, name: str) -> None:
        name = self.key(name)
        if name in self.exports or name in self._busy:
            return  # done, or an import cycle: the partial exports are what Python sees
        self._busy.add(name)
        path = self.files[name]
        try:
            source = self.unsaved[str(path)] if str(path) in self.unsaved else read_file(path)
            self._sources[str(path)] = source
            tree = parse(source, str(path))
            try:
                lowerer, _ = lower_settled(
                    lambda later, prior: Lowerer(tree, str(path), self, name, source, later,
                                                 prior),
                    lambda lowerer: lowerer.lower_into(self.module.body),
                    lambda: self._erase(str(path)))
            except Exception as e:  # noqa: BLE001  (one file must not stop the run)
                self._erase(str(path))
                raise internal_error(str(path), e) from None
        except FrontendError as e:
            self.errors.append(e)
            self.exports[name] = {}
            return
        self.exports[name] = lowerer.scopes[0].facts
        listed = _constant_all(tree)
        if listed is not None:
            self._all[name] = listed
        self._busy.discard(name)

    def _erase(self, filename: str) -> None:
        """Drop the half-lowered module of `filename` (lowering stopped in the middle)."""
        for op in list(self.module.body.operations):
            if op.operation.name == "host.module" and \
                    ir.StringAttr(op.operation.attributes["filename"]).value == filename:
                op.operation.erase()

    def is_module(self, name: str) -> bool:
        """Whether `name` is a module of the program (given, or found under `root`)."""
        name = self.key(name)
        return name in self.files or self._look_up(name.split("."))

    def all_names(self, name: str) -> list[str] | None:
        """The module's `__all__`, when a module-level statement assigns it a list or tuple
        of string constants; else None (every public name is exported)."""
        names = self._all.get(self.key(name))
        return list(names) if names is not None else None

    def resolve(self, qualname: str) -> Fact | None:
        """`pkg.mod.name` -> the fact `pkg.mod` binds `name` to, lowering it first."""
        parts = qualname.split(".")
        for i in range(len(parts), 0, -1):
            mod = ".".join(parts[:i])
            if self.is_module(mod):
                rest = parts[i:]
                if not rest:
                    return Fact("library", qualname=mod)
                self.lower(mod)
                fact = self.exports.get(self.key(mod), {}).get(rest[0])
                return fact if fact is not None and len(rest) == 1 else UNKNOWN
        return None


    def _look_up(self, parts: list[str]) -> bool:
        """Add the module `parts` names when it is a file of the project under `root`
        that was not given (`harp analyze train.py` beside `model.py`; notebooks importing
        `common/layers.py`): its functions and classes are facts of the program, its hints
        are not reported. Bounded, so that a file importing a large package stays fast."""
        name = ".".join(parts)
        if self.root is None or self._found >= _MAX_LOOKED_UP or name in self._absent or \
                not all(p.isidentifier() for p in parts):
            return False
        base = self.root.joinpath(*parts)
        for path in (base.with_suffix(".py"), base / "__init__.py"):
            if path.is_file():
                self.files[name] = path
                self._found += 1
                return True
        self._absent.add(name)  # `torch.nn.functional`: asked for again and again
        return False


    def absent_paths(self) -> list[Path]:
        """The files a module looked up and not found would have been in: one appearing
        there would change what the program's imports resolve to."""
        if self.root is None:
            return []
        paths = []
        for name in sorted(self._absent):
            base = self.root.joinpath(*name.split("."))
            paths += [base.with_suffix(".py"), base / "__init__.py"]
        return paths


def _package_of(root: Path | None) -> str:
    """The dotted package a folder is (it and the folders above it that hold an
    `__init__.py`), or ""."""
    names = []
    folder = root.resolve() if root is not None and root.is_dir() else None
    while folder is not None and (folder / "__init__.py").is_file() and \
            folder.name.isidentifier() and len(names) < 16:
        names.insert(0, folder.name)
        folder = folder.parent
    return ".".join(names)


def _constant_all(tree) -> tuple[str, ...] | None:
    """`__all__ = ["a", "b"]` (or a tuple) at module level: the names, else None."""
    found = None
    for stmt in tree.body:
        for small in stmt.body if isinstance(stmt, cst.SimpleStatementLine) else ():
            if isinstance(small, cst.Assign) and len(small.targets) == 1 and \
                    isinstance(small.targets[0].target, cst.Name) and \
                    small.targets[0].target.value == "__all__":
                value = small.value
                if isinstance(value, (cst.List, cst.Tuple)) and all(
                        isinstance(e.value, cst.SimpleString) for e in value.elements):
                    found = tuple(e.value.evaluated_value for e in value.elements)
                else:
                    found = None  # computed: every public name, as a fallback
    return found


#: project modules added on import per program, at most
_MAX_LOOKED_UP = 64


def lower_program(paths: list[Path], root: Path | None = None) -> tuple[ir.Module,
                                                                        list[FrontendError]]:
    """Lower several files as one program (see Program); syntax errors are collected."""
    program = Program.from_paths(paths, root)
    return program.lower_all(), program.errors
