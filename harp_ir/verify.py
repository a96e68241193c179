"""`harp refactor --verify CMD`: keep only the fixes a real run shows keep behaviour.

CMD (a short run of the program, or the user's tests) runs in a temporary copy of the
project, first as it is, then with the fixes. A run behaves the same when its exit status
is the same and its standard output is the same, numbers compared within a tolerance
(reordered float sums differ in the last bits). When the run with every fix differs, the
fixes are split in halves and each half tried on top of what was kept, so a bad fix is
found in O(k log n) runs and the good ones stay. The user's files are never touched
unless `--apply` writes the fixes that were kept.
"""

from __future__ import annotations

import math
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

#: a number as programs print it: 3, -0.25, 1e-05, 1.5E+3, nan, inf
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?|nan|inf)")


@dataclass(frozen=True)
class Run:
    status: int  # the exit status; -N for a signal, 124 for a timeout
    stdout: str
    stderr: str
    seconds: float

    def describe(self) -> str:
        return f"exit {self.status}, {self.seconds:.2f} s"


def run_command(command: str, cwd: Path, timeout: float) -> Run:
    """Run `command` through the shell in `cwd`, in a session of its own: on a timeout
    (exit status 124) or Ctrl-C, its whole process group is killed, so nothing it started
    is left running."""
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    start = time.perf_counter()
    proc = subprocess.Popen(command, shell=True, cwd=cwd, env=env, text=True,
                            errors="replace", stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                            start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
        status = proc.returncode
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        out, _ = proc.communicate()
        status, err = 124, f"timed out after {timeout:g} s"
    except BaseException:
        _kill_group(proc)
        proc.communicate()
        raise
    return Run(status, out, err, time.perf_counter() - start)


def measured(command: str, profile: Path) -> str | None:
    """CMD run under `harp measure`, writing `profile`, when CMD is one Python program
    (`python SCRIPT ARGS`, `python -m MODULE ARGS`, `SCRIPT.py ARGS`, `pytest ARGS`); None
    for anything else (a shell pipeline, `make test`, `python -c`), whose counts cannot be
    charged to one program's lines."""
    try:
        lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        argv = list(lexer)
    except ValueError:
        return None
    if not argv or any(set(word) <= set("();<>|&") for word in argv):
        return None
    first = argv[0]
    if re.fullmatch(r"python[0-9.]*", os.path.basename(first)):
        python, rest = first, argv[1:]
    elif first.endswith((".py", ".ipynb")):
        python, rest = sys.executable, argv
    elif os.path.basename(first) == "pytest":
        python, rest = sys.executable, ["-m", "pytest", *argv[1:]]
    else:
        return None
    if not rest or (rest[0].startswith("-") and rest[0] != "-m"):
        return None
    return shlex.join([python, "-m", "harp_ir.cli.harp", "measure", "--root", ".", "-o",
                      str(profile), "--", *rest])


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:  # the group has gone already
        pass


def stopped_at_once(path: Path, data: bytes) -> bytes:
    """`path`'s content made to stop as soon as it runs (a notebook: in its first cell):
    a run of CMD that behaves the same with it never ran that file."""
    stop = f"raise SystemExit('harp --verify: {path.name} ran')\n"
    if path.suffix != ".ipynb":
        return stop.encode()
    import nbformat

    try:
        metadata = nbformat.reads(data.decode("utf-8"), as_version=4).metadata
    except Exception:  # an unreadable notebook: any notebook that stops will do
        metadata = {}
    nb = nbformat.v4.new_notebook(metadata=metadata,
                                  cells=[nbformat.v4.new_code_cell(stop.strip())])
    return nbformat.writes(nb).encode()


def difference(a: Run, b: Run, rtol: float, atol: float) -> str:
    """How run `b` behaves differently from run `a` ("" when it does not): the exit status,
    or the first output line that differs, numbers within `rtol`/`atol`."""
    if a.status != b.status:
        return f"exit status {a.status} became {b.status}" + (
            f" ({b.stderr.strip().splitlines()[-1]})" if b.stderr.strip() else "")
    lines_a, lines_b = a.stdout.splitlines(), b.stdout.splitlines()
    for i, (x, y) in enumerate(zip(lines_a, lines_b, strict=False), 1):
        if not _same_line(x, y, rtol, atol):
            return f"output line {i} was {x.strip()!r}, now {y.strip()!r}"
    if len(lines_a) != len(lines_b):
        return f"{len(lines_a)} output lines became {len(lines_b)}"
    return ""


def _same_line(x: str, y: str, rtol: float, atol: float) -> bool:
    if x == y:
        return True
    if _NUMBER.sub("#", x) != _NUMBER.sub("#", y):  # the words around the numbers differ
        return False
    for p, q in zip(_NUMBER.findall(x), _NUMBER.findall(y), strict=True):
        u, v = float(p), float(q)
        if not (u == v or math.isclose(u, v, rel_tol=rtol, abs_tol=atol) or
                (math.isnan(u) and math.isnan(v))):
            return False
    return True


def copy_project(root: Path, into: Path) -> Path:
    """A copy of `root` under `into` to run in: `.git` and caches left out, virtual
    environments linked (programs read them, never write them)."""
    target = into / root.name

    def ignore(folder: str, names: list[str]) -> list[str]:
        return [n for n in names if n in (".git", "__pycache__", ".mypy_cache",
                                          ".pytest_cache", ".ruff_cache") or
                (Path(folder, n, "pyvenv.cfg").is_file())]

    shutil.copytree(root, target, symlinks=True, ignore=ignore)
    for entry in root.iterdir():  # virtual environments: linked, not copied
        if (entry / "pyvenv.cfg").is_file():
            (target / entry.name).symlink_to(entry.resolve(), target_is_directory=True)
    return target


@dataclass
class Verdict:
    baseline: Run
    kept: list  # fix keys kept
    dropped: list[tuple[object, str]]  # (fix key, how the run changed)
    final: Run | None  # the run with the kept fixes (None when none were kept)


def bisect_fixes(fixes: Sequence, check: Callable[[list], str]) -> tuple[list, list]:
    """Split `fixes` into those kept and (fix, why) dropped: `check(subset)` runs the
    program with `subset` applied and says how it behaves differently ("" if not)."""
    kept: list = []
    dropped: list = []

    def search(candidates: list) -> None:
        if not candidates:
            return
        why = check(kept + candidates)
        if not why:
            kept.extend(candidates)
        elif len(candidates) == 1:
            dropped.append((candidates[0], why))
        else:
            middle = len(candidates) // 2
            search(candidates[:middle])
            search(candidates[middle:])

    search(list(fixes))
    return kept, dropped
