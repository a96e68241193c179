"""harp-opt: the pass driver, in the spirit of mlir-opt.

Reads a `.mlir` module (or a `.py` file, lowered first) from a file or stdin, runs a pass
pipeline that can mix upstream passes and harp's, verifies after each pass, and prints the
result. Errors are `file:line:col: error: ...` lines with exit status 1.
"""

from __future__ import annotations

import argparse
import errno
import re
import sys
from pathlib import Path

from torch_mlir import ir

from harp_ir import pipeline
from harp_ir.analysis import walk
from harp_ir.cli import interruptible
from harp_ir.context import make_context
from harp_ir.diagnostics import format_mlir_error
from harp_ir.dialects.host import escaped_is_utf8, location_is_utf8
from harp_ir.frontend.lower import lower_source
from harp_ir.frontend.source import FrontendError, decode_source
from harp_ir.library_loops import model_library_loops
from harp_ir.passes import passes
from harp_ir.pipeline import PipelineError, pipeline_elements

SPLIT_MARKER = "// -----"


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="harp-opt",
        description="Run MLIR and harp passes over host-dialect modules. Passes are given "
                    "as --pass-pipeline='builtin.module(...)' or one flag each "
                    "(--harp-host-sync-in-loop, --canonicalize, --cse, ...), run in order.")
    p.add_argument("input", nargs="?", default="-", help="a .mlir or .py file, or - for stdin")
    p.add_argument("-o", dest="output", default="-", help="output file (default stdout)")
    p.add_argument("--pass-pipeline", action="append", default=[],
                   help="a textual pipeline, e.g. 'builtin.module(canonicalize,harp-...)'")
    p.add_argument("--list-passes", action="store_true", help="list harp's passes and exit")
    p.add_argument("--mlir-print-op-generic", action="store_true",
                   help="print ops in generic form")
    p.add_argument("--mlir-print-debuginfo", action="store_true",
                   help="print source locations")
    p.add_argument("--split-input-file", action="store_true",
                   help="process each '// -----' chunk of the input separately")
    p.add_argument("--no-verify-each", action="store_true",
                   help="do not verify the module after each pass (hint passes, which "
                        "only annotate, are verified once after a run of them)")
    p.add_argument("--emit-irdl", action="store_true",
                   help="print the host dialect as IRDL (for mlir-opt --irdl-file) and exit")
    p.add_argument("--emit-dialect-doc", action="store_true",
                   help="print the host dialect's Markdown documentation and exit")
    return p


def split_passes(argv: list[str]) -> tuple[list[str], list[str]]:
    """Separate pass flags (kept in command-line order) from the other arguments."""
    known = {a for action in _parser()._actions for a in action.option_strings}
    elements, rest = [], []
    it = iter(argv)
    for arg in it:
        if arg.startswith("--pass-pipeline"):
            value = arg.split("=", 1)[1] if "=" in arg else next(it, "")
            elements += pipeline_elements(value)
        elif arg.startswith("--") and arg[2:].split("=", 1)[0] in passes():
            elements.append(arg[2:])
        elif arg.startswith("--") and arg.split("=", 1)[0] not in known and arg != "--":
            name, _, options = arg[2:].partition("=")
            elements.append(f"{name}{{{options}}}" if options else name)  # upstream pass
        else:
            rest.append(arg)
    return elements, rest


#: the most harp-opt reads from a file or stdin, far beyond any real program's module: a
#: larger input is refused before it exhausts memory
MAX_INPUT_BYTES = 256 * 2**20


def _read(path: str) -> str:
    """MLIR is UTF-8; a Python file is decoded as Python decodes it (PEP 263, BOM). Only a
    regular file or stdin is read (a FIFO would block, a device would never end), and at
    most MAX_INPUT_BYTES of it."""
    if path == "-":
        data = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
    else:
        if Path(path).exists() and not Path(path).is_file():
            raise OSError(errno.EINVAL, "not a regular file")
        with open(path, "rb") as f:
            data = f.read(MAX_INPUT_BYTES + 1)
    if len(data) > MAX_INPUT_BYTES:
        raise OSError(errno.EFBIG, f"larger than {MAX_INPUT_BYTES:,} bytes")
    if path.endswith(".py"):
        return decode_source(data, path)
    return data.decode("utf-8")


def process(text: str, name: str, elements: list[str], args) -> str:
    """Parse (or lower) one chunk, run the pipeline, return the printed module."""
    if name.endswith(".py"):
        module = lower_source(text, name)
        model_library_loops(module)  # the loops library runners run, as `harp analyze` sees
    else:
        _check_op_names(text, name)
        module = ir.Module.parse(text)
        try:
            _check_locations(module.operation, name)
        except UnicodeDecodeError:  # the bindings read op names as UTF-8
            raise _BadModule(f"{name}: error: the module names an op in bytes that are "
                             f"not valid UTF-8") from None
    pipeline.run(elements, module.operation, verify_each=not args.no_verify_each)
    return module.operation.get_asm(
        enable_debug_info=args.mlir_print_debuginfo,
        print_generic_op_form=args.mlir_print_op_generic)


class _BadModule(Exception):
    """A module the passes cannot be run on; the message names the file."""


#: a quoted name followed by `(`: an op in the generic form (`"host.call"(...)`) or a
#: name location (`loc("name"("file":1:1))`)
_QUOTED_NAME = re.compile(r'"((?:[^"\\\n]|\\.)*)"\s*\(')


def _check_op_names(text: str, name: str) -> None:
    """A module naming an op in bytes that are not UTF-8 (`"\\FF"() ({...})`) is refused
    before it is parsed: the verifier reads op names while MLIR parses, and the bindings
    abort the process (not an exception) on one that is not UTF-8."""
    for match in _QUOTED_NAME.finditer(text):
        if "\\" in match[1] and not escaped_is_utf8(match[1]):
            line = text.count("\n", 0, match.start()) + 1
            col = match.start() - text.rfind("\n", 0, match.start())
            raise _BadModule(f"{name}:{line}:{col}: error: an op or location is named in "
                             f"bytes that are not valid UTF-8: \"{match[1]}\"")


def _check_locations(module: ir.Operation, name: str) -> None:
    """A module whose locations name files in bytes that are not UTF-8 is refused: the
    bindings abort the process when such a name is read (a verifier cannot catch it on ops
    of other dialects)."""
    for op in [module, *walk(module)]:
        if not location_is_utf8(op.location):
            raise _BadModule(f"{name}: error: the location of a '{op.name}' op names a file "
                                f"that is not valid UTF-8: {op.location}")


def _main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        elements, rest = split_passes(argv)
    except PipelineError as e:
        print(f"harp-opt: error: {e}", file=sys.stderr)
        return 2
    args = _parser().parse_args(rest)
    if args.list_passes:
        for flag, description in passes().items():
            print(f"  --{flag:<32} {description}")
        return 0
    if args.emit_irdl or args.emit_dialect_doc:
        from harp_ir.dialects import host

        sys.stdout.write(host.irdl_text(include_terminators=False) if args.emit_irdl
                         else host.markdown())
        return 0
    try:
        text = _read(args.input)
    except OSError as e:
        print(f"harp-opt: error: cannot read '{args.input}': {e.strerror}", file=sys.stderr)
        return 1
    except UnicodeDecodeError as e:
        print(f"harp-opt: error: cannot read '{args.input}': not UTF-8 ({e.reason} at byte "
              f"{e.start})", file=sys.stderr)
        return 1
    except FrontendError as e:
        print(e, file=sys.stderr)
        return 1
    name = "<stdin>" if args.input == "-" else args.input
    chunks = text.split(SPLIT_MARKER) if args.split_input_file else [text]
    outputs, status, offset = [], 0, 0
    with make_context():
        for chunk in chunks:
            # pad with the lines before the chunk, so diagnostics name lines of the file
            chunk, offset = "\n" * offset + chunk, offset + chunk.count("\n")
            try:
                outputs.append(process(chunk, name, elements, args))
            except FrontendError as e:
                print(e, file=sys.stderr)
                status = 1
            except ir.MLIRError as e:
                for line in format_mlir_error(e, name):
                    print(line, file=sys.stderr)
                status = 1
            except _BadModule as e:
                print(e, file=sys.stderr)
                status = 1
            except PipelineError as e:
                print(f"harp-opt: error: {e}", file=sys.stderr)
                return 1
    result = f"\n{SPLIT_MARKER}\n".join(o.rstrip("\n") for o in outputs) + "\n" \
        if outputs else ""
    if args.output == "-":
        sys.stdout.write(result)
    else:
        try:
            with open(args.output, "w", encoding="utf-8") as f:
                f.write(result)
        except OSError as e:
            print(f"harp-opt: error: cannot write '{args.output}': {e.strerror}",
                  file=sys.stderr)
            return 1
    return status


main = interruptible(_main, "harp-opt")

if __name__ == "__main__":
    sys.exit(main())
