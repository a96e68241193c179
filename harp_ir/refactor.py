"""`harp refactor`: apply the codemods of the hints found in a file, one at a time.

After each rewrite the file is analysed again, so every later fix sees the code as it now
is, and a fixed hint is gone: applying twice gives the same file as applying once.
Files are written through a temporary file and `os.replace`, and only when every step
parsed, so a file is never left half-written or broken.
"""

from __future__ import annotations

import codecs
import difflib
import io
import os
import stat
import tempfile
import tokenize
from dataclasses import dataclass, field, replace
from pathlib import Path

from harp_ir import codemods
from harp_ir.feedback import Feedback, filter_hints
from harp_ir.report import Hint, Task, analyze_module

MAX_STEPS = 100


@dataclass
class Outcome:
    path: Path
    original: str
    source: str
    applied: list[tuple[Hint, str]] = field(default_factory=list)  # (hint, safety)
    keys: list[tuple] = field(default_factory=list)  # of the applied fixes (see _keys)
    declined: list[tuple[Hint, str]] = field(default_factory=list)  # (hint, reason)

    def diff(self) -> str:
        header = [f"# {h.id} {h.name} at line {h.span.line} ({safety} fix); safe if: "
                  + "; ".join(a.describe() for a in h.assumptions) + "\n"
                  for h, safety in self.applied]
        body = difflib.unified_diff(self.original.splitlines(keepends=True),
                                    self.source.splitlines(keepends=True),
                                    fromfile=_label("a", self.path),
                                    tofile=_label("b", self.path))
        return "".join(header) + "".join(body)


def _label(side: str, path: Path) -> str:
    return str(path) if path.is_absolute() else f"{side}/{path}"


def hints_in(source: str, path: Path, task: Task | None = None) -> list[Hint]:
    """The hints of `path`, holding `source`, as `harp analyze` finds them: in the program
    of `task` (a directory is one program, files given side by side are one; `path` alone
    by default), its other files as they are on disk, imports looked up from its root."""
    from harp_ir.frontend.program import Program

    task = task or Task(path.parent, (path,), (path,))
    program = Program.from_paths(list(task.program), task.root)
    program.unsaved[str(path)] = source
    program.lower_files([*task.targets, path])
    mine = [e for e in program.errors if e.filename == str(path)]
    if mine:
        raise mine[0]
    return [h for h in analyze_module(program.module) if h.span.file == str(path)]


def files_to_fix(task: Task, feedback: Feedback) -> dict[str, list[Hint] | None] | None:
    """The files of `task` with a hint that has a codemod, each with the program's hints
    in it, from one analysis of the whole program (re-analysing the program once per file
    would be quadratic in a large folder; `refactor_source` starts from these); a file it
    could not read maps to None (its own analysis reports the error). None when the
    analysis fails (then every file is tried, and reports its own error)."""
    from harp_ir.frontend.program import Program

    try:
        program = Program.from_paths(list(task.program), task.root)
        program.lower_files(task.targets)
        found = analyze_module(program.module)
    except Exception:  # noqa: BLE001  (each file then reports its own error)
        return None
    fixable = {h.span.file for h in filter_hints(found, feedback)
               if codemods.fix_for(h.id) is not None}
    plan: dict[str, list[Hint] | None] = {
        file: [h for h in found if h.span.file == file] for file in fixable}
    plan.update({e.filename: None for e in program.errors})
    return plan


def refactor_source(source: str, path: Path, feedback: Feedback, unsafe: bool = False,
                    allow=None, task: Task | None = None,
                    first: list[Hint] | None = None) -> Outcome:
    """Fix what can be fixed in `source` (only the fixes whose key `allow` holds, when
    given: `--verify` tries subsets), analysing it as part of `task`'s program, as
    `harp analyze` does (`first`: the hints of `source` as it is, when already known).
    Needs a current harp context."""
    outcome = Outcome(path, source, source)
    tried: set[tuple] = set()
    declined: dict[tuple, tuple[Hint, str]] = {}
    found_in: dict[tuple, str] = {}  # the text each tried hint was found in
    retry: set[tuple] = set()  # declined by a codemod: may succeed after a fix
    found: list[Hint] = []
    applied: dict[tuple, set[int]] = {}  # a hint's text -> the occurrences fixed
    for _ in range(MAX_STEPS):
        # the text is as given until a fix applies: its hints are `first`, when known
        found = first if first is not None and outcome.source == source else \
            hints_in(outcome.source, path, task)
        found = filter_hints(found, feedback, {str(path): outcome.source.splitlines()})
        keys = _keys(found, outcome.source.splitlines(), applied)
        todo = [(h, k) for h, k in zip(found, keys, strict=True) if k not in tried]
        if not todo:
            break
        hint, key = todo[0]
        tried.add(key)
        found_in[key] = outcome.source  # where a decline of it is placed back from
        fix = codemods.fix_for(hint.id)
        if fix is None or allow is not None and key not in allow:
            continue
        safety = fix.safety(hint)
        if safety == "unsafe" and not unsafe:
            because = f"{fix.unsafe_because}; " if fix.unsafe_because else ""
            declined[key] = (hint, f"unsafe fix: {because}pass --unsafe-fixes to apply it")
            continue
        try:
            fixed, conditions = codemods.apply(outcome.source, hint)
        except codemods.Decline as e:
            declined[key] = (hint, str(e))
            retry.add(key)
            continue
        except Exception as e:  # noqa: BLE001  (a codemod bug must not cost the user a file)
            declined[key] = (hint, f"the codemod failed ({type(e).__name__}: {e})")
            continue
        if conditions:
            safety = "unsafe"
            if not unsafe:
                declined[key] = (hint, f"unsafe fix: it needs {'; '.join(conditions)}, "
                                       f"which is not proved; pass --unsafe-fixes to apply it")
                continue
        outcome.source = fixed
        outcome.applied.append((hint, safety))
        outcome.keys.append(key)
        applied.setdefault(key[:-1], set()).add(key[-1])
        tried -= retry  # the code changed: `y = f(x)` can move once `x = ...` has moved
        retry.clear()
    remaining = set(_keys(found, outcome.source.splitlines(), applied))
    outcome.declined = [(_as_read(hint, key, found_in[key], source), reason)
                        for key, (hint, reason) in declined.items() if key in remaining]
    return outcome


def _as_read(hint: Hint, key: tuple, text: str, source: str) -> Hint:
    """`hint`, found in `text` (the file as rewritten by the fixes before it was declined),
    placed in `source`, the file as read: a decline names the line the user has (and a
    notebook's cell is found from the file), not a line of a rewrite never written. The
    statement is found by its text and occurrence, as `_keys` identifies it."""
    if text == source:
        return hint
    lines, now = source.splitlines(), text.splitlines()
    places = [i for i, line in enumerate(lines) if line.strip() == key[2]]
    # the same text can hold hints with other messages: when the fixes kept every line of
    # it, the hint's line is the one at its own place among them
    places_now = [i for i, line in enumerate(now) if line.strip() == key[2]]
    if len(places_now) == len(places) and hint.span.line - 1 in places_now:
        line = places[places_now.index(hint.span.line - 1)] + 1
    elif key[3] < len(places) and 0 < hint.span.line <= len(now):
        line = places[key[3]] + 1
    else:
        return hint
    shift = line - hint.span.line
    indent = (len(lines[line - 1]) - len(lines[line - 1].lstrip())) - \
        (len(now[hint.span.line - 1]) - len(now[hint.span.line - 1].lstrip()))
    one_line = hint.span.end_line == hint.span.line
    return replace(hint, span=replace(
        hint.span, line=line, col=hint.span.col + indent, end_line=hint.span.end_line + shift,
        end_col=hint.span.end_col + (indent if one_line else 0)))


def _keys(found: list[Hint], lines: list[str], applied: dict[tuple, set[int]]
          ) -> list[tuple[str, str, str, int]]:
    """Each hint's identity across rewrites: its id, message and statement text (a line
    moved by an earlier fix is still the same one), and which occurrence of that text it
    is, counted as in the file before any fix (two identical loops hold two hints: the
    second is still the second once the first is fixed)."""
    keys, seen = [], {}
    for hint in found:
        line = lines[hint.span.line - 1].strip() if 0 < hint.span.line <= len(lines) else ""
        text = (hint.id, hint.message, line)
        fixed = applied.get(text, set())
        nth = seen.get(text, -1) + 1
        while nth in fixed:  # the occurrences already fixed are gone from `found`
            nth += 1
        seen[text] = nth
        keys.append((*text, nth))
    return keys


class WriteError(Exception):
    """A file `--apply` will not or cannot rewrite; the message says why."""


@dataclass(frozen=True)
class SourceFile:
    """A file as `--apply` found it: its bytes, the encoding Python reads it with and
    whether it starts with a BOM. Writing it back keeps all of that (line endings are in
    the text, never translated), writes through a symlink to its target, keeps its mode,
    owner and hard links, and refuses when the file is read-only or changed since."""

    path: Path
    data: bytes
    encoding: str
    bom: bool

    @staticmethod
    def read(path: Path) -> SourceFile:
        data = path.read_bytes()
        bom = data.startswith(codecs.BOM_UTF8)
        try:
            encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        except SyntaxError:  # undecodable: decoding the text reports it
            encoding = "utf-8"
        return SourceFile(path, data, "utf-8" if encoding == "utf-8-sig" else encoding, bom)

    def encode(self, text: str) -> bytes:
        try:
            return (codecs.BOM_UTF8 if self.bom else b"") + text.encode(self.encoding)
        except UnicodeEncodeError as e:
            raise WriteError(f"the fixed text cannot be written in the file's encoding "
                             f"({self.encoding}): {e.reason}") from None

    def write(self, text: str) -> None:
        if b"\r" in self.data.replace(b"\r\n", b""):
            raise WriteError("lone CR line endings, which the rewrite would not keep exactly: "
                             "not rewritten")
        target = self.path.resolve()  # through a symlink: the link stays a link
        new = self.encode(text)
        try:
            st = target.stat()
            if not st.st_mode & stat.S_IWUSR:
                raise WriteError("read-only: not rewritten")
            if st.st_nlink > 1 or (hasattr(os, "getuid") and st.st_uid != os.getuid()):
                self._write_in_place(target, new)  # keeps hard links and owner
            else:
                write_atomically(target, new, expected=self.data)
        except OSError as e:
            raise WriteError(e.strerror or str(e)) from None

    def _write_in_place(self, target: Path, new: bytes) -> None:
        with open(target, "r+b") as f:
            if f.read() != self.data:  # read through the handle that writes
                raise WriteError(CHANGED)
            f.seek(0)
            f.write(new)
            f.truncate()


#: why a file another program changed while harp worked on it is left alone
CHANGED = "changed since harp read it: not rewritten (run again)"


def write_atomically(path: Path, data: bytes, expected: bytes | None = None) -> None:
    """Replace `path` with `data` in one step: a crash leaves the old file or the new one.

    With `expected`, a compare-and-swap: the file must still hold `expected` when the new
    one takes its place. It is compared after the new content is on disk, just before the
    rename, and the old file (kept under a second name while the rename happens) once more
    after it: an edit that landed in between (an editor's save, a `>>` append) is put back
    and the write refused (`WriteError`), never lost."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".harp")
    kept = None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, path.stat().st_mode)
        if expected is not None:
            kept = _second_name(path)
            if path.read_bytes() != expected:
                raise WriteError(CHANGED)
        os.replace(tmp, path)
        if kept is not None and kept.read_bytes() != expected:
            os.replace(kept, path)  # the edit made during the swap is the file again
            kept = None
            raise WriteError(CHANGED)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    finally:
        if kept is not None:
            kept.unlink(missing_ok=True)


def _second_name(path: Path) -> Path | None:
    """A hard link to `path`'s current file, so that the file a rename replaces can still
    be read (and put back); None where the file system has no hard links."""
    for i in range(100):
        name = path.with_name(f".{path.name}.{os.getpid()}.{i}.harp-old")
        try:
            os.link(path, name)
            return name
        except FileExistsError:
            continue
        except OSError:
            return None
    return None
