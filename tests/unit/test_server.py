"""`harp server` end to end, driven over stdio by a real LSP client (pytest-lsp): open a
file and receive its diagnostics, hover a hint, apply its safe fix as a code action, and
receive the cleared diagnostics."""

import sys

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

HOT = ("import torch\nmodel = torch.nn.Linear(2, 2).cuda()\n"
       "opt = torch.optim.SGD(model.parameters(), lr=0.1)\ntotal = 0.0\n"
       "for x in loader:\n    loss = model(x).sum()\n    loss.backward()\n"
       "    for p in model.parameters():\n        total += p.grad.norm().item()\n")


@pytest_lsp.fixture(config=ClientServerConfig(
    server_command=[sys.executable, "-m", "harp_ir.cli.harp", "server"]))
async def client(lsp_client: LanguageClient, tmp_path_factory):
    root = tmp_path_factory.mktemp("project")
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"), root_uri=root.as_uri()))
    lsp_client.root = root
    yield
    await lsp_client.shutdown_session()


async def _open(client: LanguageClient, name: str, text: str) -> str:
    path = client.root / name
    path.write_text(text)
    uri = path.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="python", version=1,
                                             text=text)))
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return uri


@pytest.mark.asyncio
async def test_diagnostics_hover_and_a_fix_that_clears_them(client: LanguageClient):
    uri = await _open(client, "train.py", HOT)
    [diagnostic] = client.diagnostics[uri]
    assert diagnostic.code == "HARP201" and diagnostic.source == "harp"
    assert diagnostic.range == types.Range(start=types.Position(line=8, character=17),
                                           end=types.Position(line=8, character=37))
    assert diagnostic.message.endswith("[safe fix]")

    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        position=types.Position(line=8, character=20)))
    assert "host-sync-in-loop" in hover.contents.value and "Assumes:" in hover.contents.value

    [action] = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=diagnostic.range,
        context=types.CodeActionContext(diagnostics=[diagnostic])))
    assert action.is_preferred and action.title == "harp: fix HARP201 host-sync-in-loop"
    [edit] = action.edit.changes[uri]
    fixed = edit.new_text
    assert "total += p.grad.norm().item()" not in fixed

    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=fixed)]))
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert list(client.diagnostics[uri]) == []


@pytest.mark.asyncio
async def test_a_syntax_error_is_an_error_diagnostic_at_its_place(client: LanguageClient):
    uri = await _open(client, "broken.py", "x = (\n")
    [diagnostic] = client.diagnostics[uri]
    assert diagnostic.severity == types.DiagnosticSeverity.Error
    assert diagnostic.range.start.line == 0 and "never closed" in diagnostic.message


@pytest.mark.asyncio
async def test_a_document_sees_the_workspace_modules_it_imports(client: LanguageClient):
    """ddpg.py's update runs in a loop of its base class, in another file of the
    workspace: the editor shows the hint `harp analyze` gives for the program."""
    import shutil
    from pathlib import Path

    program = Path(__file__).resolve().parents[1] / "lit" / "cli" / "Inputs" / \
        "base_class_program"
    shutil.copytree(program / "agents", client.root / "agents")
    text = (program / "agents" / "ddpg.py").read_text()
    uri = await _open(client, "agents/ddpg.py", text)
    assert [(d.code, d.range.start.line + 1) for d in client.diagnostics[uri]] == [
        ("HARP405", 27)]
