"""Run the analyses on Python files and turn the findings on the IR into hints."""

from __future__ import annotations

import ast
import fnmatch
import multiprocessing
import os
import re
import signal
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

import pathspec
from torch_mlir import ir

from harp_ir import hints, notebook
from harp_ir.findings import Assumption, Hint, Span  # noqa: F401  (Hint: re-exported)
from harp_ir.frontend.source import internal_error

if TYPE_CHECKING:
    from harp_ir.frontend.program import Program

SKIP_DIRS = {".venv", "venv", "__pycache__", ".git", "node_modules", "build", "Output"}


def _module_attr(op: ir.Operation, name: str) -> str:
    """A string attribute of the host.module that holds `op`, or ""."""
    from harp_ir.analysis import host_module

    parent = host_module(op)
    if parent is None or name not in parent.attributes:
        return ""
    return ir.StringAttr(parent.attributes[name]).value


def _dynamic_features(op: ir.Operation) -> list[str]:
    """The dynamic features recorded on the host.module that holds `op`."""
    from harp_ir.analysis import host_module

    parent = host_module(op)
    if parent is None or "harp.dynamic" not in parent.attributes:
        return []
    return [f"{ir.StringAttr(ir.DictAttr(d)['feature']).value} (line "
            f"{ir.IntegerAttr(ir.DictAttr(d)['line']).value})"
            for d in ir.ArrayAttr(parent.attributes["harp.dynamic"])]


def collect(module: ir.Module) -> list[Hint]:
    """The hints recorded (as `harp.hints`) on the ops of an analysed module. In a module
    that uses eval/exec, monkey-patching or computed attribute names, every hint also
    rests on the library not being patched: a medium-risk speculation."""
    from harp_ir.analysis import span, walk
    from harp_ir.codemods import fix_for

    found = []
    for op in walk(module.operation):
        if "harp.hints" not in op.attributes:
            continue
        where = span(op.location) or Span("-", 0, 0, 0, 0)
        dynamic = _dynamic_features(op)
        extra = [Assumption("not-patched", ", ".join(dynamic), "medium", "speculated",
                            "the module uses dynamic features that can change what names "
                            "resolve to")] if dynamic else []
        tf1 = _module_attr(op, "harp.tf1")
        if tf1:
            extra.append(Assumption("tf1-api", tf1, "low", "speculated",
                                    "these names exist only in TensorFlow 1, so `tf.*` is "
                                    "read as `tensorflow.compat.v1`"))
        for entry in ir.ArrayAttr(op.attributes["harp.hints"]):
            d = ir.DictAttr(entry)
            spec = hints.BY_ID[ir.StringAttr(d["id"]).value]
            moves = tuple(Span(where.file, *ir.DenseI64ArrayAttr(a))
                          for a in ir.ArrayAttr(d["moves"])) if "moves" in d else ()
            related = tuple(
                Span(ir.StringAttr(ir.DictAttr(r)["file"]).value,
                     *ir.DenseI64ArrayAttr(ir.DictAttr(r)["span"]))
                for r in ir.ArrayAttr(d["related"])) if "related" in d else ()
            hint = Hint(spec.id, spec.name, where, ir.StringAttr(d["message"]).value,
                        spec.refactoring, "none",
                        [Assumption.from_attr(a) for a in ir.ArrayAttr(d["assumptions"])]
                        + extra, moves, related)
            fix = fix_for(spec.id)
            found.append(replace(hint, fix=fix.safety(hint)) if fix else hint)
    return sorted(found, key=lambda h: (h.span.file, h.span.line, h.span.col, h.id))


def fixes_tried(found: list[Hint], source_of: Callable[[str], str]) -> list[Hint]:
    """The hints with the `fix` that `harp refactor` would give each: its codemod is run on
    the file's text (`source_of(path)`); a hint it declines has no fix, one whose rewrite
    needs a condition it could not prove has an unsafe one. `fix_rests_on` are the
    assumption kinds that answer depends on, and `fix_if_confirmed` the answer once the
    user confirms them (`--assume`, the config; `Feedback.admits`). What `analyze`
    promises is what `refactor` does, decided by the same code."""
    from harp_ir import codemods, rules

    tried = []
    for hint in found:
        fix = codemods.fix_for(hint.id)
        if fix is None:
            tried.append(hint)
            continue
        rules.consulted = set()
        try:
            now = _dry_run(fix, hint, source_of)
            kinds = tuple(sorted(rules.consulted))
        finally:
            rules.consulted = None
        confirmed = replace(hint, assumptions=[
            replace(a, status="confirmed") if a.kind in kinds and
            a.status not in ("proved", "confirmed") else a for a in hint.assumptions])
        then = _dry_run(fix, confirmed, source_of) if confirmed != hint else now
        tried.append(replace(hint, fix=now, fix_if_confirmed=then if then != now else "",
                             fix_rests_on=kinds))
    return tried


def _dry_run(fix, hint: Hint, source_of: Callable[[str], str]) -> str:
    """What `harp refactor` makes of `hint`'s fix: "none" (declined), "unsafe", "safe"."""
    from harp_ir import codemods

    safety = fix.safety(hint)
    try:
        _, conditions = codemods.apply(source_of(hint.span.file), hint)
    except Exception:  # noqa: BLE001  (Decline, an unreadable file or a codemod bug)
        return "none"
    return "unsafe" if conditions else safety


def analyze_module(module: ir.Module) -> list[Hint]:
    """Run every hint pass. The module is verified once: the analysis passes only add
    attributes, so verifying after each of them (harp-opt's default) would be wasted."""
    from harp_ir.analysis import cached_walks
    from harp_ir.library_loops import model_library_loops
    from harp_ir.passes import analysis_pipeline
    from harp_ir.pipeline import build

    model_library_loops(module)
    module.operation.verify()
    with cached_walks():
        build(list(analysis_pipeline()), verify_each=False).run(module.operation)
        return collect(module)


def analyze_file(path: str | Path) -> list[Hint]:
    """Lower and analyse one file (a notebook's hints are at its cells). Needs a current
    harp context."""
    from harp_ir.frontend.lower import lower_file

    return [in_cells(h) for h in analyze_module(lower_file(path))]


def in_cells(hint: Hint) -> Hint:
    """A hint in a notebook, located at its cell and the line in that cell (the analyses
    see the joined source of the code cells); so are its related places in notebooks."""
    hint = replace(hint, related=tuple(map(cell_span, hint.related)))
    if hint.span.cell is not None or not notebook.is_notebook(hint.span.file):
        return hint
    joined = notebook.joined(hint.span.file)
    if joined.locate(hint.span.line) is None:
        return hint

    def cell_lines(text: str) -> str:  # "line 48" of the joined source -> "cell 7 line 5"
        def sub(m: re.Match) -> str:
            at = joined.locate(int(m[1]))
            return f"cell {at[0]} line {at[1]}" if at else m[0]
        return _LINE_REF.sub(sub, text)

    return replace(
        hint, span=cell_span(hint.span), moves=tuple(map(cell_span, hint.moves)),
        message=cell_lines(hint.message),
        assumptions=[replace(a, subject=cell_lines(a.subject), reason=cell_lines(a.reason))
                     for a in hint.assumptions])


_LINE_REF = re.compile(r"\bline (\d+)\b")


def cell_span(where: Span) -> Span:
    """A span of a notebook's joined source as its cell and the line in that cell."""
    if where.cell is not None or not notebook.is_notebook(where.file):
        return where
    try:
        joined = notebook.joined(where.file)
    except notebook.NotebookError:
        return where
    start, end = joined.locate(where.line), joined.locate(where.end_line)
    if start is None:
        return where
    end_line = end[1] if end is not None and end[0] == start[0] else start[1]
    return replace(where, cell=start[0], line=start[1], end_line=end_line)


def notebook_errors(path: Path) -> list[str]:
    """The cells of a notebook that are not Python (they are left out of the analysis)."""
    try:
        return [str(e) for e in notebook.joined(path).errors]
    except notebook.NotebookError:
        return []  # unreadable: the frontend reports it


@dataclass(frozen=True)
class Task:
    """Some files of one program to analyse: the program's files (so that imports
    resolve) and the ones to report on."""

    root: Path | None
    program: tuple[Path, ...]
    targets: tuple[Path, ...]
    #: the run's other targets (resolved): a module this program imports from its folder
    #: may be one (`common/layers.py`, given as a folder beside the notebooks that use it),
    #: and its hints seen from this program's calls are reported too
    also_reported: frozenset[Path] = frozenset()


def tasks_for(paths: list[str], jobs: int, exclude: tuple[str, ...] = ()
              ) -> tuple[list[Task], list[str]]:
    """Split the inputs into tasks: each directory is one program, lowered and analysed
    whole in one task (how often a function runs depends on every file that calls it), and
    so are the files given from one folder (`harp analyze main.py agent.py`); workers share
    out the tasks."""
    tasks, errors = [], []
    seen: set[Path] = set()  # `x.py ./x.py` or a file inside a folder also named
    beside: dict[Path, int] = {}  # a folder -> the task of the files given from it
    for arg in map(Path, paths):
        if arg.is_dir():
            listed, unreadable = python_files([str(arg)], exclude)
            files, root = tuple(listed), arg
            errors += unreadable
        elif arg.is_file():
            files, root = (arg,), arg.parent
        else:
            errors.append(f"{arg}: error: " + ("not a regular file" if arg.exists() or
                                               arg.is_symlink() else
                                               "no such file or directory"))
            continue
        targets = tuple(f for f in files if f.resolve() not in seen)
        seen.update(f.resolve() for f in targets)
        if not targets:
            continue
        if arg.is_file():  # files given side by side are one program (main.py, agent.py)
            folder = root.resolve()
            if folder in beside:
                task = tasks[beside[folder]]
                tasks[beside[folder]] = Task(task.root, task.program + targets,
                                             task.targets + targets)
                continue
            beside[folder] = len(tasks)
        tasks.append(Task(root, files, targets))
    tasks = _join_subfolders(tasks, set(beside))
    everything = frozenset(t.resolve() for task in tasks for t in task.targets)
    return [replace(task, also_reported=everything) for task in tasks], errors


def _join_subfolders(tasks: list[Task], folders: set[Path]) -> list[Task]:
    """A folder given beside files of a folder above it, whose modules those files import
    by their package path (`train.py` with `from modules.prediction import Attention`,
    given as `train.py model.py modules`), is part of their program: how often the code
    of `modules/` runs, and under what, is known only from those calls. A folder they do
    not import (another program kept beside them) stays a program of its own."""
    groups = {t.root.resolve(): i for i, t in enumerate(tasks)
              if t.root is not None and t.root.resolve() in folders}
    imported: dict[int, set[str]] = {}  # read only for a group with a folder below it

    def imports(folder: Path, part: str) -> bool:
        group = groups[folder]
        if group not in imported:
            imported[group] = _imported_names(tasks[group].program)
        return part in imported[group]

    joins: dict[int, list[Task]] = {}
    kept = []
    for i, task in enumerate(tasks):
        root = task.root.resolve() if task.root is not None else None
        above = [folder for folder in groups
                 if root is not None and root != folder and root.is_relative_to(folder) and
                 imports(folder, root.relative_to(folder).parts[0])]
        if above:  # the outermost: a folder inside a folder inside it joins it too
            joins.setdefault(groups[min(above, key=lambda f: len(f.parts))], []).append(task)
        else:
            kept.append(i)
    result = []
    for i in kept:
        task = tasks[i]
        for part in joins.get(i, []):
            task = Task(task.root, task.program + part.program, task.targets + part.targets)
        result.append(task)
    return result


def _imported_names(files: tuple[Path, ...]) -> set[str]:
    """The top-level names the files import absolutely (`modules` of `from modules.x
    import y`); a file that does not parse imports nothing here (its error comes later)."""
    names: set[str] = set()
    for path in files:
        try:
            text = notebook.joined(path).source if notebook.is_notebook(path) else \
                path.read_text(encoding="utf-8", errors="replace")
            tree = ast.parse(text)
        except (SyntaxError, ValueError, OSError, notebook.NotebookError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names.update(a.name.split(".")[0] for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
    return names


def run_task(task: Task) -> tuple[list[Hint], list[str], list[str], list[str]]:
    """Lower the targets (and, on demand, the modules they import) and analyse them: the
    hints, the error lines, and what the result depends on besides the program's own
    files (the modules of the project looked up for imports, and the paths of those looked
    for and not found, which the result cache checks). Needs a current harp context."""
    from harp_ir.frontend.program import Program

    program = Program.from_paths(list(task.program), task.root)
    hints, errors = analyse_task(task, program)
    given = {str(p) for p in task.program}
    looked_up = [str(p) for p in program.files.values() if str(p) not in given]
    return hints, errors, looked_up, [str(p) for p in program.absent_paths()]


def analyse_task(task: Task, program: Program) -> tuple[list[Hint], list[str]]:
    """The hints of a task's targets, with their error lines, from its program."""
    from harp_ir.diagnostics import format_mlir_error

    wanted = {str(t) for t in task.targets}
    program.lower_files(task.targets)
    errors = [str(e) for e in program.errors if e.filename in wanted]
    errors += [e for t in task.targets if notebook.is_notebook(t) for e in notebook_errors(t)]
    try:
        found = [h for h in analyze_module(program.module)
                 if h.span.file in wanted or (task.also_reported and
                                              Path(h.span.file).resolve() in task.also_reported)]
        found = [in_cells(h) for h in fixes_tried(found, program.source_of)]
    except ir.MLIRError as e:
        return [], errors + format_mlir_error(e, str(task.root))
    except RecursionError:  # an analysis walking IR nested too deeply
        return [], errors + [f"{t}:1:1: error: nested too deeply for harp's analyses "
                             f"(Python's recursion limit was reached); not analysed"
                             for t in task.targets]
    except Exception as e:  # noqa: BLE001  (a bug of harp's must not stop the other tasks)
        return [], errors + [str(internal_error(str(task.root), e))]
    return found, errors


_WORKER_CONTEXT = None


def _ignore_interrupts() -> None:
    """Ctrl-C reaches the whole process group: the parent reports it once; workers, which
    it shuts down, must not each print a traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run_task_in_worker(task: Task):
    global _WORKER_CONTEXT
    if _WORKER_CONTEXT is None:
        from harp_ir.context import make_context

        _WORKER_CONTEXT = make_context()
    with _WORKER_CONTEXT:
        return run_task(task)


def _a_context():
    """The current harp context, or a new one: a run the cache answers whole needs none
    (and never imports what making one imports)."""
    import contextlib

    if ir.Context.current is not None:
        return contextlib.nullcontext()
    from harp_ir.context import make_context

    return make_context()


def jobs_for(files: int, requested: int = 0) -> int:
    """Worker processes for `files` files: as many as requested, capped by the files and
    the cores; by default one for small inputs (a worker costs seconds to start), else all
    cores."""
    cores = os.cpu_count() or 1
    if requested > 0:
        return min(requested, max(1, files), cores)
    return 1 if files < 32 else cores


def analyze_paths(paths: list[str], jobs: int = 1,
                  progress: Callable[[int, int], None] | None = None,
                  exclude: tuple[str, ...] = (), cache=None) -> tuple[list[Hint], list[str]]:
    """Analyse files and directories; each directory is one program (its files import
    each other). With jobs > 1 the files are analysed in worker processes, each resolving
    the imports it needs; jobs <= 0 asks for -jobs workers, capped as `jobs_for` caps them
    (0: as many as the number of files calls for). A program whose entry in `cache`
    (harp_ir.cache.Cache) is still valid is not analysed again. Returns the hints and the
    error lines. With one worker it uses the current harp context, or makes one."""
    from harp_ir.cache import file_digest

    tasks, errors = tasks_for(paths, jobs, exclude)
    total, done, found = sum(len(t.targets) for t in tasks), 0, []
    if jobs <= 0:  # as many workers as the files call for (jobs_for)
        jobs = jobs_for(total, -jobs)
    todo, read = [], {}
    for task in tasks:
        entry = cache.get(task) if cache is not None else None
        if entry is None:
            todo.append(task)
            if cache is not None:  # the digests an entry is checked by, taken before reading
                read[task] = {str(p): file_digest(p) for p in task.program}
            continue
        found += [Hint.from_json(h) for h in entry["hints"]]
        errors += entry["errors"]
        done += len(task.targets)
    if progress and done:
        progress(done, total)

    def finished(task, result) -> None:
        nonlocal done, found, errors
        hints, errs, looked_up, absent = result
        found += hints
        errors += errs
        done += len(task.targets)
        if cache is not None:
            cache.put(task, [h.to_json() for h in hints], errs,
                      read[task] | {p: file_digest(p) for p in looked_up}, sorted(set(absent)))
        if progress:
            progress(done, total)

    if jobs > 1 and todo:
        # multiprocessing's pool, not concurrent.futures': on Ctrl-C (once or twice) its
        # exit terminates the workers, where an executor's exit waits for every queued task
        # and a second Ctrl-C in that wait left harp hung at interpreter exit
        with multiprocessing.Pool(jobs, initializer=_ignore_interrupts) as pool:
            results = pool.imap(_run_task_in_worker, todo)
            for task, result in zip(todo, results, strict=True):
                finished(task, result)
    elif todo:
        with _a_context():
            for task in todo:
                finished(task, run_task(task))
    # a file two programs hold (a module one imports, given too) is reported once
    unique = {(str(Path(h.span.file).resolve()), h.span.line, h.span.col, h.id, h.message): h
              for h in found}
    found = sorted(unique.values(), key=lambda h: (h.span.file, h.span.line, h.span.col, h.id))
    return found, sorted(set(errors), key=errors.index)


def python_files(paths: list[str], exclude: tuple[str, ...] = ()
                 ) -> tuple[list[Path], list[str]]:
    """The .py files, notebooks and Python scripts without a suffix (`train`, run by its
    `#!/usr/bin/env python` line) under `paths` (sorted), less those matching an `exclude`
    glob (relative to the folder given, or the path as given), and an error line for each
    path that does not exist and each folder that cannot be read (never skipped silently)."""
    files, errors = [], []
    for p in map(Path, paths):
        if p.is_dir():
            ignored = _gitignored(p)
            files += sorted(
                f for f in _files_under(p, errors)
                if (f.suffix in (".py", notebook.SUFFIX) or _python_script(f)) and f.is_file()
                and not _excluded(f.relative_to(p), exclude)
                and not SKIP_DIRS.intersection(f.relative_to(p).parts[:-1])
                and ".ipynb_checkpoints" not in f.relative_to(p).parts
                and not ignored(f))
        elif p.is_file():
            files.append(p)
        else:
            errors.append(f"{p}: error: no such file or directory")
    return files, errors


#: the first line of a script the Python interpreter runs (`#!/usr/bin/python3`,
#: `#!/usr/bin/env python`)
_PYTHON_SHEBANG = re.compile(rb"#![^\n]*\bpython[0-9.]*\b")


def _python_script(path: Path) -> bool:
    """A file without a suffix whose first line runs it with Python: a project's `train`
    script, which a user runs as `./train` and expects checked with the rest."""
    if path.suffix or not path.is_file():
        return False
    try:
        with path.open("rb") as f:
            return bool(_PYTHON_SHEBANG.match(f.readline(200)))
    except OSError:
        return False


def _files_under(root: Path, errors: list[str]) -> list[Path]:
    """Every file under `root`, through linked folders (each real folder once); a folder
    that cannot be listed is an error line."""
    def unreadable(e: OSError) -> None:
        errors.append(f"{e.filename}: error: cannot read the folder: {e.strerror or e}")

    found, seen = [], set()
    for folder, dirs, names in os.walk(root, onerror=unreadable, followlinks=True):
        real = os.path.realpath(folder)
        if real in seen:  # a link back up the tree
            dirs.clear()
            continue
        seen.add(real)
        dirs.sort()
        found += (Path(folder, name) for name in names)
    return found


def _gitignored(root: Path) -> Callable[[Path], bool]:
    """Whether a file under `root` is ignored by a `.gitignore` in `root` or below (each
    applies to its own folder, as git reads them; pathspec's gitignore matching)."""
    specs = []
    for ignore in root.rglob(".gitignore"):
        if ignore.is_file() and not SKIP_DIRS.intersection(ignore.relative_to(root).parts):
            try:
                lines = ignore.read_text(encoding="utf-8", errors="replace").splitlines()
            except OSError:
                continue
            specs.append((ignore.parent, pathspec.GitIgnoreSpec.from_lines(lines)))

    def ignored(path: Path) -> bool:
        return any(path.is_relative_to(folder) and
                   spec.match_file(path.relative_to(folder).as_posix())
                   for folder, spec in specs)
    return ignored


def _excluded(path: Path, patterns: tuple[str, ...]) -> bool:
    return any(path.match(p) or fnmatch.fnmatch(path.as_posix(), p) for p in patterns)
