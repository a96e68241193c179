"""`harp server`: harp as a Language Server (pygls), so hints appear in the editor as the
code is written. Diagnostics are published on open, change and save; each hint with a fix
offers it as a code action (a safe fix is the preferred quick fix, an unsafe one says
so); hovering a hint shows `harp explain`.

The document is analysed as it is in the editor, not as saved, with the modules of the
workspace it imports (as `harp analyze FILE` from the workspace's folder sees it);
`[tool.harp]` of the project applies. A change is analysed
after a short pause in typing, and only the newest text of a document is published.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from lsprotocol import types
from pygls.lsp.server import LanguageServer

import harp_ir
from harp_ir.feedback import ConfigError, Feedback, filter_hints, load_config
from harp_ir.output import error_place

#: seconds without a change before a changed document is analysed again
PAUSE = 0.3
#: the analyses run off the event loop, one at a time (they share per-run memos)
_ANALYSER = ThreadPoolExecutor(max_workers=1)


async def _off_loop(function, *args):
    return await asyncio.get_running_loop().run_in_executor(_ANALYSER, function, *args)


class HarpServer(LanguageServer):
    def __init__(self):
        super().__init__("harp", harp_ir.__version__)
        self.found: dict[str, list] = {}  # uri -> the hints last published
        self.versions: dict[str, int] = {}  # uri -> the newest version seen


server = HarpServer()


def _feedback(path: Path) -> Feedback:
    """The project's `[tool.harp]` for a document, or the defaults when it has none or it
    is broken (the command line reports a broken one; the editor shows the hints)."""
    try:
        config = load_config(path.parent)
    except ConfigError:
        config = {}
    return Feedback(level=config.get("level", "default"), assume=set(config.get("assume", [])),
                    deny=set(config.get("deny", [])), select=set(config.get("select", [])),
                    ignore=set(config.get("ignore", [])))


def analyse(text: str, path: Path, root: Path | None = None) -> tuple[list, list[str]]:
    """The hints of `text` as the document at `path`, and its error lines: the document
    is a program with the modules of the workspace (`root`) it imports, as
    `harp analyze path` sees it from there, with the editor's text in place of the file's."""
    from harp_ir.context import make_context
    from harp_ir.frontend.program import Program
    from harp_ir.report import Task, analyse_task

    if root is None or not path.is_relative_to(root):
        root = path.parent
    feedback = _feedback(path)
    with make_context():
        program = Program.from_paths([path], root)
        program.unsaved[str(path)] = text
        found, errors = analyse_task(Task(root, (path,), (path,)), program)
    return filter_hints(found, feedback, {str(path): text.splitlines()}), errors


def _root(ls: HarpServer) -> Path | None:
    """The workspace's folder, where the imports of a document are looked up."""
    folder = ls.workspace.root_path
    return Path(folder) if folder else None


def _range(span) -> types.Range:
    return types.Range(start=types.Position(line=span.line - 1, character=span.col - 1),
                       end=types.Position(line=span.end_line - 1, character=span.end_col - 1))


def diagnostic(h) -> types.Diagnostic:
    fix = {"safe": " [safe fix]", "unsafe": " [unsafe fix]"}.get(h.fix, "")
    return types.Diagnostic(
        range=_range(h.span), message=h.message + fix, severity=types.DiagnosticSeverity.Warning,
        code=h.id, source="harp")


def _error_diagnostic(line: str) -> types.Diagnostic:
    """An error line (`path:line:col: error: message`) at its place, else at the start."""
    _, row, col, message = error_place(line) or ("", 1, 1, line)
    at = types.Position(line=row - 1, character=col - 1)
    return types.Diagnostic(range=types.Range(start=at, end=at), message=message,
                            severity=types.DiagnosticSeverity.Error, source="harp")


async def publish(ls: HarpServer, uri: str, version: int | None, wait: float = 0.0) -> None:
    """Analyse the document and publish its diagnostics, unless a newer version arrived."""
    if wait:
        await asyncio.sleep(wait)
    if version is not None and ls.versions.get(uri, version) != version:
        return  # a newer change is on its way
    document = ls.workspace.get_text_document(uri)
    path = Path(document.path)
    if path.suffix != ".py":
        return
    text = document.source
    found, errors = await _off_loop(analyse, text, path, _root(ls))
    if version is not None and ls.versions.get(uri, version) != version:
        return
    ls.found[uri] = found
    ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
        uri=uri, version=version,
        diagnostics=[diagnostic(h) for h in found] + [_error_diagnostic(e) for e in errors]))


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
async def did_open(ls: HarpServer, params: types.DidOpenTextDocumentParams) -> None:
    ls.versions[params.text_document.uri] = params.text_document.version
    await publish(ls, params.text_document.uri, params.text_document.version)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
async def did_change(ls: HarpServer, params: types.DidChangeTextDocumentParams) -> None:
    ls.versions[params.text_document.uri] = params.text_document.version
    await publish(ls, params.text_document.uri, params.text_document.version, PAUSE)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
async def did_save(ls: HarpServer, params: types.DidSaveTextDocumentParams) -> None:
    await publish(ls, params.text_document.uri, ls.versions.get(params.text_document.uri))


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: HarpServer, params: types.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    ls.found.pop(uri, None)
    ls.versions.pop(uri, None)
    ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri,
                                                                        diagnostics=[]))


def _overlaps(a: types.Range, b: types.Range) -> bool:
    return (a.start.line, a.start.character) <= (b.end.line, b.end.character) and \
        (b.start.line, b.start.character) <= (a.end.line, a.end.character)


def _fixed_text(text: str, path: Path, hint, found: list) -> str | None:
    """`text` with the fix of `hint` alone applied, as `harp refactor` would (with
    `--unsafe-fixes` for an unsafe one); None when the fix declines."""
    from harp_ir.context import make_context
    from harp_ir.refactor import _keys, refactor_source

    key = _keys(found, text.splitlines(), {})[found.index(hint)]
    with make_context(), contextlib.redirect_stderr(io.StringIO()):
        outcome = refactor_source(text, path, _feedback(path), hint.fix == "unsafe",
                                  allow={key})
    return outcome.source if outcome.source != text else None


@server.feature(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(
    code_action_kinds=[types.CodeActionKind.QuickFix]))
async def code_action(ls: HarpServer, params: types.CodeActionParams
                      ) -> list[types.CodeAction]:
    uri = params.text_document.uri
    document = ls.workspace.get_text_document(uri)
    found = ls.found.get(uri, [])
    actions = []
    for h in found:
        if h.fix not in ("safe", "unsafe") or not _overlaps(_range(h.span), params.range):
            continue
        fixed = await _off_loop(_fixed_text, document.source, Path(document.path), h, found)
        if fixed is None:
            continue
        lines = document.source.splitlines(keepends=True)
        whole = types.Range(start=types.Position(line=0, character=0),
                            end=types.Position(line=len(lines), character=0))
        title = f"harp: fix {h.id} {h.name}" + (" (unsafe)" if h.fix == "unsafe" else "")
        actions.append(types.CodeAction(
            title=title, kind=types.CodeActionKind.QuickFix,
            diagnostics=[diagnostic(h)], is_preferred=h.fix == "safe",
            edit=types.WorkspaceEdit(changes={uri: [types.TextEdit(range=whole,
                                                                   new_text=fixed)]})))
    return actions


@server.feature(types.TEXT_DOCUMENT_HOVER)
def hover(ls: HarpServer, params: types.HoverParams) -> types.Hover | None:
    at = types.Range(start=params.position, end=params.position)
    for h in ls.found.get(params.text_document.uri, []):
        if _overlaps(_range(h.span), at):
            return types.Hover(contents=types.MarkupContent(
                kind=types.MarkupKind.Markdown, value=explanation(h)), range=_range(h.span))
    return None


def explanation(h) -> str:
    """The hover text: the hint's message, what it rests on, and its documentation."""
    from harp_ir import hints

    assumptions = "\n".join(f"- {a.describe()}" for a in h.assumptions)
    return f"{h.message}\n\nAssumes:\n{assumptions}\n\n{hints.BY_ID[h.id].markdown()}"


def main() -> int:
    server.start_io()
    return 0
