"""harp: find host-code performance problems in TensorFlow and PyTorch programs.

  harp import FILE.py [-o OUT.mlir]   print the host-dialect module of a file
  harp analyze PATH...                print hints (exit 0: none, 1: some, 2: errors)
  harp explain HARPnnn                print a hint's documentation
  harp --list-hints                   print the hint catalogue
"""

from __future__ import annotations

import argparse
import json
import sys

from harp_ir import hints
from harp_ir.context import make_context
from harp_ir.frontend.lower import FrontendError, lower_file
from harp_ir.report import analyze_paths


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="harp", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=__doc__.split("\n\n", 1)[1])
    p.add_argument("--list-hints", action="store_true", help="print the hint catalogue")
    sub = p.add_subparsers(dest="command")
    imp = sub.add_parser("import", help="lower a Python file to the host dialect")
    imp.add_argument("file")
    imp.add_argument("-o", dest="output", default="-")
    imp.add_argument("--mlir-print-op-generic", action="store_true")
    imp.add_argument("--no-debuginfo", action="store_true",
                     help="leave out source locations (printed by default)")
    an = sub.add_parser("analyze", help="print refactoring hints for files and directories")
    an.add_argument("paths", nargs="+")
    an.add_argument("--format", choices=("text", "json"), default="text")
    ex = sub.add_parser("explain", help="print a hint's documentation")
    ex.add_argument("hint")
    return p


def cmd_import(args) -> int:
    with make_context():
        try:
            module = lower_file(args.file)
        except FrontendError as e:
            print(e, file=sys.stderr)
            return 2
        text = module.operation.get_asm(enable_debug_info=not args.no_debuginfo,
                                        print_generic_op_form=args.mlir_print_op_generic)
    if args.output == "-":
        sys.stdout.write(text)
    else:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
    return 0


def cmd_analyze(args) -> int:
    with make_context():
        found, errors = analyze_paths(args.paths)
    if args.format == "json":
        json.dump({"version": 1, "hints": [h.to_json() for h in found], "errors": errors},
                  sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        for h in found:
            print(h.text())
        for e in errors:
            print(e, file=sys.stderr)
    if errors:
        return 2
    return 1 if found else 0


def cmd_explain(args) -> int:
    spec = hints.BY_ID.get(args.hint.upper())
    if spec is None:
        print(f"harp: error: unknown hint '{args.hint}'; see harp --list-hints",
              file=sys.stderr)
        return 2
    print(f"{spec.id} {spec.name}\n\nFinds: {spec.finds}.\n\nRefactoring: {spec.refactoring}."
          f"\n\nPass: --{spec.pass_flag}    Automatic fix: {spec.fix}\n")
    if spec.before:
        print("Before:\n\n" + _indent(spec.before) + "\nAfter:\n\n" + _indent(spec.after))
    print(f"Documentation: {spec.anchor}")
    return 0


def _indent(code: str) -> str:
    return "".join(f"    {line}\n" for line in code.splitlines())


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.list_hints:
        for h in hints.HINTS:
            print(f"{h.id}  {h.name:<28} {h.finds}")
        return 0
    commands = {"import": cmd_import, "analyze": cmd_analyze, "explain": cmd_explain}
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    return commands[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
