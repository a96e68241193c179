"""Reading Python source for the frontend: decoding (BOM, PEP 263 coding lines), notebooks'
joined code cells, parsing with libcst behind Python's own depth guard, node positions, and
the error a file harp cannot lower becomes (`file:line:col: error: ...`)."""

from __future__ import annotations

import ast
import io
import re
import sys
import tokenize
import warnings
from pathlib import Path
from typing import TYPE_CHECKING

from harp_ir import notebook

if TYPE_CHECKING:
    import libcst as cst


class FrontendError(Exception):
    """Input harp cannot lower (a syntax error): reported as `file:line:col: error: msg`."""

    def __init__(self, filename: str, line: int, col: int, message: str):
        super().__init__(message)
        self.filename, self.line, self.col, self.message = filename, line, col, message

    def __str__(self) -> str:
        return f"{self.filename}:{self.line}:{self.col}: error: {self.message}"


def read_file(path: Path) -> str:
    """The Python source of a file; of a notebook, its code cells joined (see notebook.py).
    Cells that are not Python are left out and reported by `notebook.joined(path).errors`."""
    if notebook.is_notebook(path):
        try:
            return notebook.joined(path).source
        except notebook.NotebookError as e:
            raise FrontendError(str(path), e.line, e.col, e.message) from None
    try:
        return decode_source(path.read_bytes(), str(path))
    except OSError as e:
        raise FrontendError(str(path), 1, 1, e.strerror or str(e)) from None


def decode_source(data: bytes, filename: str) -> str:
    """Python source bytes decoded as Python decodes them: a UTF-8 BOM, or a PEP 263
    `# -*- coding: ... -*-` line, else UTF-8. The BOM is not part of the text."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        return data.decode(encoding).removeprefix("\ufeff")
    except (SyntaxError, LookupError) as e:  # an unknown or contradictory coding line
        raise FrontendError(filename, 1, 1, f"cannot decode: {e}") from None
    except UnicodeDecodeError as e:
        line = data[:e.start].count(b"\n") + 1
        raise FrontendError(filename, line, 1,
                            f"cannot decode as {e.encoding}: {e.reason}") from None


#: the most source harp lowers from one file (or notebook's code): libcst's tree takes
#: about 18 KB a line, so a file of 1M characters (some 40,000 lines, far beyond a
#: hand-written program) peaks near 1 GB and takes half a minute; generated code beyond
#: it is refused with an error naming the file, never left to exhaust memory
MAX_SOURCE_CHARS = 1 << 20

#: CPython's default recursion limit, which also bounds how deeply its parser nests
PYTHON_RECURSION_LIMIT = 1000


def _too_deep(filename: str) -> FrontendError:
    return FrontendError(filename, 1, 1, "nested too deeply for harp (more levels of nesting "
                                         "than Python's parser accepts by default); the "
                                         "file is not analysed")


def internal_error(filename: str, error: Exception) -> FrontendError:
    """A file harp failed on, as an error line (libcst turns a RecursionError deep in its
    position provider into a KeyError: the chain says which it was)."""
    cause = error
    while cause is not None and not isinstance(cause, RecursionError):
        cause = cause.__context__
    if cause is not None:
        return _too_deep(filename)
    return FrontendError(filename, 1, 1, f"harp failed on this file ({type(error).__name__}); "
                                         f"it is not analysed, the others are")


def parse(source: str, filename: str) -> cst.Module:
    """libcst's tree of `source`. Python's own parser sees it first: it refuses nesting
    deep enough to overflow the native stack of libcst's parser (a crash, not an error),
    under Python's default recursion limit: what CPython itself would refuse to compile.
    Source over MAX_SOURCE_CHARS is refused."""
    import libcst as cst  # here: reading a file's text (the result cache) does not need it

    if len(source) > MAX_SOURCE_CHARS:
        raise FrontendError(filename, 1, 1, f"{len(source):,} characters of source, over "
                                            f"harp's limit of {MAX_SOURCE_CHARS:,} (generated "
                                            f"code?): not analysed; leave it out with --exclude")
    raised = sys.getrecursionlimit()
    sys.setrecursionlimit(PYTHON_RECURSION_LIMIT)
    python_error, tree = None, None
    try:
        tree = ast.parse(source)
    except (RecursionError, MemoryError):
        raise _too_deep(filename) from None
    except SyntaxError as e:
        python_error = e  # reported as Python words it, unless libcst reads newer syntax
        if e.msg.startswith("too many nested"):  # CPython's own limit, in every version
            raise _python_error(filename, e) from None
    except ValueError:
        pass  # null bytes: libcst reports them
    finally:
        sys.setrecursionlimit(raised)
    if tree is not None:
        try:
            _compiles(tree, filename)
        except SyntaxError as e:
            raise _python_error(filename, e) from None
        except (RecursionError, MemoryError):
            raise _too_deep(filename) from None
    try:
        return cst.parse_module(source)
    except RecursionError:
        raise _too_deep(filename) from None
    except cst.ParserSyntaxError as e:
        renamed = (legacy_names_renamed(source) or python2_statements_rewritten(source)) \
            if python_error is not None else tabs_expanded(source)
        if renamed is not None:
            try:
                return cst.parse_module(renamed)
            except cst.ParserSyntaxError:
                pass  # not a 3.6 program after all (`async` alone on a line): Python's error
        if python_error is not None:
            raise _python_error(filename, python_error) from None
        message = re.sub(r"^.*?error at \d+:\d+: ", "", e.message.splitlines()[0])
        raise FrontendError(filename, e.raw_line, e.raw_column + 1, message) from None


def tabs_expanded(source: str) -> str | None:
    """For a program Python reads whose indentation mixes tabs and spaces in a way libcst's
    tokenizer refuses ("no matching outer block for dedent": `\t    x` under a block
    indented with 8 spaces): the source with each line's leading tabs expanded as Python
    expands them (to the next multiple of 8), so every line stays where it was (columns
    on those lines move by the added spaces); None when no line starts with a tab. harp
    analyses such a file but never rewrites it (its indentation would not survive)."""
    out, tabbed = [], False
    for line in source.splitlines(keepends=True):
        body = line.lstrip(" \t")
        indent = line[:len(line) - len(body)]
        tabbed = tabbed or "\t" in indent
        out.append(indent.expandtabs(8) + body)
    return "".join(out) if tabbed else None


#: the names Python 3.7 made keywords, as a program of 3.6 or older may use them, and the
#: names of the same length they are read as
_LEGACY_KEYWORDS = {"async": "asyn_", "await": "awai_"}


def legacy_names_renamed(source: str) -> str | None:
    """For a program valid only before Python 3.7, where `async` or `await` is a name
    (`x.cuda(async=True)` in PyTorch 0.3-era code, `def f(async=False)`): the source with
    those names renamed to names of the same length, so every line and column stays
    where it was; None for any other source. harp analyses such a file but never
    rewrites it (the names would not survive)."""
    if not any(word in source for word in _LEGACY_KEYWORDS):
        return None
    try:
        ast.parse(source, feature_version=(3, 6))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError):
        return None
    lines = io.StringIO(source).readlines()  # the rows tokenize counts
    names = [t for t in tokens if t.type == tokenize.NAME]
    coroutines = any(t.string == "async" and nxt.string == "def"
                     for t, nxt in zip(names, names[1:], strict=False))
    for i, token in enumerate(names):
        after = names[i + 1].string if i + 1 < len(names) else ""
        if token.string == "async" and after in ("def", "for", "with") or \
                token.string == "await" and coroutines or token.string not in _LEGACY_KEYWORDS:
            continue  # a keyword where 3.6 reads one too
        row, col = token.start
        line, end = lines[row - 1], col + len(token.string)
        lines[row - 1] = line[:col] + _LEGACY_KEYWORDS[token.string] + line[end:]
    return "".join(lines)


#: tokens after which a new statement starts (NL, a blank line or a line break inside
#: brackets, starts none)
_STATEMENT_BREAKS = {tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT}
#: operators that start what a `print` statement prints (`print -x`, `print [a, b]`), or
#: its `>>` redirection; `print(`, `print.x` and `print = f` are Python 3 already
_PRINTED_OPERATORS = ("-", "+", "~", "[", "{", ">>")


def python2_statements_rewritten(source: str) -> str | None:
    """For a Python 2 program whose only Python 3 syntax errors are its `print`
    statements, `except E, e:` and `raise E, message`: the source with those written the
    Python 3 way on the same lines (`print x, y` -> `print(x, y)`, the space after
    `print` becoming the parenthesis, so columns stay), which reads and prints the same
    values; None for any other source. Old ML repositories are often Python 2 only
    through these; harp analyses such a file but never rewrites it."""
    if not any(word in source for word in ("print", "except", "raise")):
        return None
    try:
        tokens = [t for t in tokenize.generate_tokens(io.StringIO(source).readline)
                  if t.type != tokenize.COMMENT]
    except (tokenize.TokenError, SyntaxError):
        return None
    edits = []  # (row, col, old length, new text)
    depth, starts = 0, True
    opened = None  # the statement a `(` was opened for: its closing `)` goes at its end
    for i, token in enumerate(tokens):
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        if token.type == tokenize.NL:
            continue
        ends = token.type == tokenize.NEWLINE or token.string == ";" and depth == 0
        if ends and opened is not None:
            last = next(t for t in reversed(tokens[:i]) if t.type != tokenize.NL)
            edits.append((*last.end, 0, ")"))
            opened = None
        if token.type == tokenize.OP and token.string in "([{":
            depth += 1
        elif token.type == tokenize.OP and token.string in ")]}":
            depth -= 1
        if token.type == tokenize.NAME and depth == 0 and nxt is not None:
            if starts and token.string == "print" and (
                    nxt.type != tokenize.OP or nxt.string in _PRINTED_OPERATORS):
                if nxt.type in _STATEMENT_BREAKS:  # a bare `print`: an empty line
                    edits.append((*token.end, 0, "()"))
                elif nxt.string == ">>":  # `print >>f, x` reads f and x: `print(  f, x)`
                    edits.append((*token.end, nxt.end[1] - token.end[1], "(" + " " * (
                        nxt.end[1] - token.end[1] - 1)))
                    opened = token
                else:
                    gap = nxt.start[1] - token.end[1] if nxt.start[0] == token.end[0] else 0
                    edits.append((*token.end, min(gap, 1), "("))
                    opened = token
            elif starts and token.string in ("except", "raise"):
                comma = _top_level_comma(tokens, i + 1)
                if comma is not None and token.string == "except":
                    edits.append((*comma.start, 1, " as"))
                elif comma is not None:
                    edits.append((*comma.start, 1, "("))
                    opened = token
        starts = token.type in _STATEMENT_BREAKS or token.string in (";", ":") and depth == 0
    if not edits:
        return None
    lines = io.StringIO(source).readlines()
    for row, col, length, text in sorted(edits, reverse=True):
        line = lines[row - 1]
        lines[row - 1] = line[:col] + text + line[col + length:]
    rewritten = "".join(lines)
    try:
        ast.parse(rewritten)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    return rewritten


def _top_level_comma(tokens, start: int):
    """The first `,` at bracket depth 0 of the statement starting at `tokens[start]`
    (before its `:` or end), or None."""
    depth = 0
    for token in tokens[start:]:
        if token.type == tokenize.NEWLINE or depth == 0 and token.string in (":", ";"):
            return None
        if token.string in "([{" and token.type == tokenize.OP:
            depth += 1
        elif token.string in ")]}" and token.type == tokenize.OP:
            depth -= 1
        elif token.string == "," and depth == 0:
            return token
    return None


def _compiles(tree: ast.Module, filename: str) -> None:
    """Raise the SyntaxError Python's compiler raises for a tree its parser accepts (`break`
    outside a loop, `yield` outside a function, `nonlocal` with no binding). A notebook's
    cells are compiled one at a time by IPython: `await` at the top level and a `__future__`
    import in a later cell are fine there."""
    notebook_cells = filename.endswith(".ipynb")
    try:
        with warnings.catch_warnings():  # `x is 'a'`: the program's author's business
            warnings.simplefilter("ignore")
            compile(tree, filename, "exec", dont_inherit=True,
                    flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT if notebook_cells else 0)
    except SyntaxError as e:
        if not (notebook_cells and e.msg.startswith("from __future__ imports must")):
            raise


def _python_error(filename: str, error: SyntaxError) -> FrontendError:
    """A syntax error at the line and column Python gives, in Python's words."""
    return FrontendError(filename, error.lineno or 1, error.offset or 1,
                         f"invalid syntax: {error.msg}" if error.msg != "invalid syntax"
                         else "invalid syntax")


def positions(tree: cst.Module) -> dict:
    """Source ranges of every node. Runs libcst's PositionProvider directly: through
    MetadataWrapper.resolve the same result costs twice as long (an extra batched visit of
    the whole tree)."""
    from libcst.metadata import PositionProvider

    provider = PositionProvider()
    provider._gen_impl(tree)
    return provider._computed


def read_source(path: str | Path) -> str:
    """What harp analyses of a file: its text, or a notebook's joined code cells."""
    return read_file(Path(path))
