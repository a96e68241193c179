"""`harp server`'s time from a change to its diagnostics, as an editor sees it: a real LSP
client (pygls) starts the server over stdio, opens a generated training program of about
2,000 lines, then changes one line five times, timing each change until the new
diagnostics arrive (the server waits `server.PAUSE` seconds of quiet before analysing).

    python bench/lsp_latency.py [--functions 80]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient

sys.path.insert(0, str(Path(__file__).resolve().parent))
from throughput import training_program  # noqa: E402


async def measure(functions: int) -> list[str]:
    client = LanguageClient("harp-latency", "1")
    arrived: asyncio.Queue = asyncio.Queue()

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def diagnostics(params: types.PublishDiagnosticsParams) -> None:
        arrived.put_nowait((time.perf_counter(), params))

    await client.start_io(sys.executable, "-m", "harp_ir.cli.harp", "server")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "train.py"
        text = training_program(functions)
        path.write_text(text)
        await client.initialize_async(types.InitializeParams(
            capabilities=types.ClientCapabilities(), root_uri=Path(folder).as_uri()))
        client.initialized(types.InitializedParams())
        uri = path.as_uri()
        start = time.perf_counter()
        client.text_document_did_open(types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="python", version=1,
                                                 text=text)))
        done, first = await arrived.get()
        rows = [f"{text.count(chr(10)):,} lines, {len(first.diagnostics)} diagnostics; "
                f"open to diagnostics {done - start:.2f} s (the first analysis)"]
        took = []
        for version in range(2, 7):
            text = text.replace("lr=0.1", f"lr=0.{version}", 1)
            start = time.perf_counter()
            client.text_document_did_change(types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))
            while True:
                done, params = await arrived.get()
                if params.version == version:
                    break
            took.append(done - start)
        rows.append(f"change to diagnostics: median {statistics.median(took):.2f} s, "
                    f"max {max(took):.2f} s over {len(took)} changes")
        await client.shutdown_async(None)
        client.exit(None)
    await client.stop()
    return rows


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--functions", type=int, default=80,
                   help="training functions in the program (about 23 lines each)")
    args = p.parse_args()
    print("\n".join(asyncio.run(measure(args.functions))))


if __name__ == "__main__":
    main()
