"""Jupyter notebooks as programs: code cells joined into one Python source, with a map back.

A notebook runs its code cells top to bottom in one namespace, so harp analyses it as one
module: the code cells joined, each after a `# %% harp cell N` marker line (N is the cell's
1-based position in the notebook, markdown cells counted, so `nb.cells[N - 1]` is it).
IPython syntax that is not Python (`%magic`, `!shell` with the lines its trailing backslashes
continue onto, `x = !cmd`, `obj?`, and cell magics such as `%%bash` whose body is not Python)
becomes an opaque statement in its place: the call IPython itself would make
(`get_ipython().run_line_magic(...)`), tagged with a comment so the original line comes back
verbatim when the notebook is rewritten. A Python 2 cell whose only Python 3 errors are
`print` statements (and `except E, e`, `raise E, m`) is read as Python 3 on the same lines,
its marker saying so; fixes never rewrite such a cell. A cell that is not valid Python even
then is reported as an error at its cell and line, and left out.

The file is read with nbformat; it is rewritten only where nbformat's own serialisation
reproduces it byte for byte, so every output, metadata field, cell id and the nbformat
version stay as they were, and only the changed code cells' sources differ.
"""

from __future__ import annotations

import ast
import functools
import json
import re
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import nbformat

SUFFIX = ".ipynb"
_MARKER = "# %% harp cell {}"
_PYTHON2 = " (Python 2, read as Python 3)"
_MARKER_RE = re.compile(rf"^# %% harp cell (\d+)({re.escape(_PYTHON2)})?$")
_TAG_RE = re.compile(r"  # harp-magic (\d+)$")
# Cell magics whose body is Python and runs as written (once, or timed in a loop).
_PYTHON_CELL_MAGICS = {"time", "timeit", "capture", "prun", "debug", "memit"}
_ASSIGNED_MAGIC = re.compile(r"^(\s*)([A-Za-z_][\w.,\s\[\]()]*?)\s*=\s*([!%].*)$")


def is_notebook(path: str | Path) -> bool:
    return str(path).endswith(SUFFIX)


class NotebookError(Exception):
    """A notebook that cannot be read, or a cell that is not Python: `path:cell N:l:c`."""

    def __init__(self, filename: str, cell: int | None, line: int, col: int, message: str):
        super().__init__(message)
        self.filename, self.cell, self.line, self.col = filename, cell, line, col
        self.message = message

    def __str__(self) -> str:
        where = f"cell {self.cell}:" if self.cell is not None else ""
        return f"{self.filename}:{where}{self.line}:{self.col}: error: {self.message}"


@dataclass
class Joined:
    """The Python source of a notebook's code cells, and how to go back to the cells."""

    source: str
    cell_of_line: list[tuple[int, int] | None]  # joined line - 1 -> (cell, line in cell)
    magics: dict[int, str] = field(default_factory=dict)  # tag -> original line
    errors: list[NotebookError] = field(default_factory=list)

    def locate(self, line: int) -> tuple[int, int] | None:
        """(cell, line in cell) of a line of the joined source."""
        if 1 <= line <= len(self.cell_of_line):
            return self.cell_of_line[line - 1]
        return None


def _magic_call(text: str) -> str:
    """The call IPython makes for one line of IPython syntax (without indentation)."""
    if text.startswith("!"):
        return f"get_ipython().system({text.lstrip('!')!r})"
    if text.startswith("%"):
        name, _, rest = text.lstrip("%").partition(" ")
        return f"get_ipython().run_line_magic({name!r}, {rest!r})"
    name = text.strip("?").strip()
    if "*" in name:  # torch.*Tensor?: a wildcard search of the namespace
        return f"get_ipython().run_line_magic('psearch', {name!r})"
    magic = "pinfo2" if text.startswith("??") or text.endswith("??") else "pinfo"
    return f"get_ipython().run_line_magic({magic!r}, {name!r})"  # obj?, ?obj, obj??


def _is_ipython_line(stripped: str) -> bool:
    """`%magic`, `!shell`, or IPython's help: `obj?`, `obj??`, `?obj`, `torch.*Tensor?`."""
    return stripped.startswith(("%", "!", "?")) or (
        stripped.endswith("?") and not stripped.startswith("#") and stripped.rstrip("?")
        .strip().replace(".", "").replace("*", "_").isidentifier())


def _parses(source: str) -> SyntaxError | None:
    try:
        compile(source, "<cell>", "exec", ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT,
                dont_inherit=True)
    except SyntaxError as e:
        return e
    except ValueError as e:  # a null byte
        return SyntaxError(str(e))
    return None


def _cell_lines(source: str, magics: dict[int, str]) -> tuple[list[str], SyntaxError | None]:
    """The cell's lines with IPython syntax replaced by opaque calls (tags into `magics`)."""
    lines = source.splitlines()

    def opaque(i: int, indent: str, code: str) -> None:
        tag = len(magics)
        magics[tag] = lines[i]
        lines[i] = f"{indent}{code}  # harp-magic {tag}" if code else f"  # harp-magic {tag}"

    if _parses(source) is None:
        return lines, None
    first = lines[0].strip() if lines else ""
    if first.startswith("%%"):
        name = first[2:].split(" ", 1)[0]
        opaque(0, "", f"get_ipython().run_line_magic({name!r}, '')")
        if name not in _PYTHON_CELL_MAGICS:
            for i in range(1, len(lines)):
                opaque(i, "", "get_ipython().run_cell_magic('body', '', '')")
    def continued(i: int, text: str) -> str:
        """The line's text joined with the lines its trailing backslashes continue onto, as
        IPython assembles an escaped command; those lines become tag-only comments."""
        parts = [text]
        while parts[-1].rstrip().endswith("\\") and i + len(parts) < len(lines):
            parts.append(lines[i + len(parts)])
        for j in range(i + 1, i + len(parts)):
            opaque(j, "", "")
        return " ".join([p.rstrip()[:-1] for p in parts[:-1]] + [parts[-1].rstrip()])

    for i, line in enumerate(lines):
        if i == 0 and first.startswith("%%"):
            continue
        stripped = line.strip()
        indent = line[: len(line) - len(line.lstrip())]
        assigned = _ASSIGNED_MAGIC.match(line)
        if assigned and not _TAG_RE.search(line):
            command = continued(i, assigned[3].strip())
            opaque(i, assigned[1], f"{assigned[2]} = {_magic_call(command)}")
        elif stripped and _is_ipython_line(stripped) and not _TAG_RE.search(line):
            opaque(i, indent, _magic_call(continued(i, stripped)))
    return lines, _parses("\n".join(lines))


def join(nb: nbformat.NotebookNode, filename: str) -> Joined:
    """The code cells of `nb` as one Python source with a line map back to the cells."""
    from harp_ir.frontend.source import python2_statements_rewritten  # it imports this module

    out: list[str] = []
    where: list[tuple[int, int] | None] = []
    joined = Joined("", where)
    for index, cell in enumerate(nb.cells, start=1):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        source = source_of(cell)
        if source is None:
            joined.errors.append(NotebookError(filename, index, 1, 1,
                                               f"the cell's source is not text "
                                               f"({type(cell.get('source')).__name__}): "
                                               f"left out"))
            continue
        tags_before = len(joined.magics)
        lines, error = _cell_lines(source, joined.magics)
        python2 = python2_statements_rewritten("\n".join(lines)) if error else None
        if python2 is not None:
            lines, error = python2.split("\n"), None
        if error is not None:
            for tag in range(tags_before, len(joined.magics)):
                del joined.magics[tag]  # the cell is left out: its magics go with it
            joined.errors.append(NotebookError(filename, index, error.lineno or 1,
                                               error.offset or 1, error.msg or str(error)))
            continue
        out.append(_MARKER.format(index) + (_PYTHON2 if python2 is not None else ""))
        where.append(None)
        for n, line in enumerate(lines, start=1):
            out.append(line)
            where.append((index, n))
    joined.source = "\n".join(out) + "\n" if out else ""
    return joined


def read(path: str | Path) -> nbformat.NotebookNode:
    """The notebook at `path`, in nbformat 4: an older one (nbformat 3, cells in
    worksheets) is upgraded as Jupyter does when it opens one, so cells are numbered as the
    user sees them."""
    try:
        with warnings.catch_warnings():  # nbformat's advice on ids: not the user's concern
            warnings.simplefilter("ignore")
            nb = _parse(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError, UnicodeDecodeError) as e:  # ValueError: not JSON
        raise NotebookError(str(path), None, 1, 1, f"cannot read the notebook: {e}") from None
    except Exception as e:  # noqa: BLE001  (nbformat's schema and reader errors)
        raise NotebookError(str(path), None, 1, 1,
                            f"not a notebook nbformat can read: {e}") from None
    if not isinstance(nb.get("cells"), list):
        raise NotebookError(str(path), None, 1, 1,
                            "not a notebook nbformat can read: it has no list of cells")
    return nb


def _parse(text: str) -> nbformat.NotebookNode:
    """A notebook's JSON as nbformat 4, not validated (nbformat would log the schema error):
    a cell whose source is not text stays as it is, and `join` reports it at its cell."""
    import nbformat  # here: reading a notebook is rare, importing nbformat is not cheap

    data = json.loads(text)
    if _version(data) < 4:
        return nbformat.convert(nbformat.reader.reads(text), 4)
    nb = nbformat.from_dict(data)
    for cell in nb.get("cells") or []:
        source = cell.get("source") if isinstance(cell, dict) else None
        if isinstance(source, list) and all(isinstance(part, str) for part in source):
            cell.source = "".join(source)  # the on-disk form of multi-line text
    return nb


def _version(data) -> int:
    """The nbformat major version a notebook's JSON declares (4 when it says none)."""
    version = data.get("nbformat", 4) if isinstance(data, dict) else None
    if not isinstance(version, int):
        raise ValueError("it is not a JSON object with an nbformat version number")
    return version


def source_of(cell) -> str | None:
    """A cell's source text; None when the file holds something else there."""
    source = cell.get("source", "") if isinstance(cell, dict) else None
    return source if isinstance(source, str) else None


@functools.lru_cache(maxsize=64)
def _joined_cached(path: str, mtime_ns: int) -> Joined:
    return join(read(path), path)


def joined(path: str | Path) -> Joined:
    """The joined source of the notebook at `path` (cached while the file is unchanged)."""
    try:
        mtime = Path(path).stat().st_mtime_ns
    except OSError as e:
        raise NotebookError(str(path), None, 1, 1, e.strerror or str(e)) from None
    return _joined_cached(str(path), mtime)


def python2_cell(source: str, line: int) -> int | None:
    """The number of the cell holding `line` of a joined source when that cell is Python 2
    read as Python 3 (harp never rewrites it), else None."""
    for text in reversed(source.splitlines()[:line]):
        marker = _MARKER_RE.match(text)
        if marker:
            return int(marker[1]) if marker[2] else None
    return None


def split(source: str, magics: dict[int, str]) -> dict[int, str]:
    """Cell number -> cell source, from a (rewritten) joined source; magics restored."""
    cells: dict[int, list[str]] = {}
    current: list[str] | None = None
    for line in source.splitlines():
        marker = _MARKER_RE.match(line)
        if marker:
            current = cells.setdefault(int(marker[1]), [])
            continue
        if current is None:
            if line.strip():  # a fix put code above the first cell: it belongs to it
                current = []
                cells.setdefault(-1, current)
            else:
                continue
        tag = _TAG_RE.search(line)
        if tag and int(tag[1]) in magics:
            original = magics[int(tag[1])]
            indent = line[: len(line) - len(line.lstrip())]
            # a continuation line of an escaped command is a comment: it comes back as it was
            line = original if line.lstrip().startswith("#") else indent + original.lstrip()
        current.append(line)
    if -1 in cells:
        first = min(k for k in cells if k != -1)
        cells[first] = cells.pop(-1) + cells[first]
    return {k: "\n".join(v) for k, v in cells.items()}


def rewrite(path: Path, old_source: str, new_source: str) -> str:
    """The notebook file's new text, with the cells the fixes changed and nothing else:
    its line endings (CRLF from Windows) and its final newline, or none, as they were."""
    raw = path.read_bytes().decode("utf-8")
    crlf = "\r\n" in raw
    if crlf and raw.count("\r\n") != raw.count("\n"):
        raise NotebookError(str(path), None, 1, 1,
                            "not rewritten: it mixes CRLF and LF line endings, which the "
                            "rewrite would not keep exactly")
    text = raw.replace("\r\n", "\n")
    version = _version(json.loads(text))
    if version < 4:
        raise NotebookError(str(path), None, 1, 1,
                            f"not rewritten: it is in nbformat {version}, which harp reads "
                            f"but does not write (saving it in Jupyter upgrades it to "
                            f"nbformat 4)")
    import nbformat

    nb = _parse(text)
    broken = next((i for i, cell in enumerate(nb.cells, 1) if source_of(cell) is None), None)
    if broken:
        raise NotebookError(str(path), broken, 1, 1,
                            "not rewritten: the cell's source is not text")
    if nbformat.writes(nb, version=nbformat.NO_CONVERT).rstrip("\n") != text.rstrip("\n"):
        raise NotebookError(str(path), None, 1, 1,
                            "not rewritten: its JSON layout is not the one nbformat writes "
                            "(saving it once in Jupyter makes it so)")
    if any(_MARKER_RE.match(line) for cell in nb.cells if cell.get("cell_type") == "code"
           for line in cell.source.splitlines()):
        raise NotebookError(str(path), None, 1, 1,
                            "not rewritten: a cell holds a line harp uses to mark cells")
    magics = join(nb, str(path)).magics
    before, after = split(old_source, magics), split(new_source, magics)
    if before.keys() != after.keys():
        raise NotebookError(str(path), None, 1, 1,
                            "not rewritten: a fix moved code across cells")
    python2 = {int(m[1]) for m in map(_MARKER_RE.match, old_source.splitlines()) if m and m[2]}
    for number, source in after.items():
        cell = nb.cells[number - 1]
        if source != before[number] and number in python2:
            raise NotebookError(str(path), number, 1, 1,
                                "not rewritten: the cell is Python 2, which harp reads but "
                                "does not rewrite")
        if source != before[number]:
            trailing = cell.source[len(cell.source.rstrip("\n")):]
            cell.source = source + trailing
    out = nbformat.writes(nb, version=nbformat.NO_CONVERT).rstrip("\n")
    out += "\n" if text.endswith("\n") else ""
    return out.replace("\n", "\r\n") if crlf else out
