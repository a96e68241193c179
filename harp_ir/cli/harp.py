"""harp: find host-code performance problems in TensorFlow and PyTorch programs.

  harp import FILE.py [-o OUT.mlir]   print the host-dialect module of a file
  harp analyze PATH...                print hints (exit 0: none, 1: some, 2: errors)
  harp explain HARPnnn                print a hint's documentation
  harp --list-hints                   print the hint catalogue
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import sys
import tempfile
from pathlib import Path

from torch_mlir import ir

from harp_ir import hints, notebook, output, verify
from harp_ir.cache import DEFAULT_DIR as DEFAULT_CACHE_DIR
from harp_ir.cache import Cache
from harp_ir.cli import interruptible
from harp_ir.feedback import LEVELS, ConfigError, Feedback, filter_hints, load_config
from harp_ir.findings import ASSUMPTIONS
from harp_ir.frontend.source import FrontendError, decode_source, internal_error, read_source
from harp_ir.report import analyze_paths, in_cells, notebook_errors, tasks_for


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
    imp.add_argument("--trace", metavar="SPEC",
                     help="add the graphs the entry points of a trace spec (TOML, or a "
                          "pyproject.toml with [tool.harp.trace]) really build")
    imp.add_argument("--graph", action="store_true",
                     help="lower graph computations to torch and tf dialect ops "
                          "(--harp-lower-graph)")
    an = sub.add_parser("analyze", help="print refactoring hints for files and directories")
    an.add_argument("paths", nargs="+")
    an.add_argument("--output-format", choices=output.FORMATS, default=None,
                    help="concise (default: a line a hint), full (the source, what the "
                         "hint rests on, the fix), json, sarif, or github (workflow "
                         "annotations)")
    an.add_argument("--format", choices=("text", "json", "sarif"), default=None,
                    help=argparse.SUPPRESS)  # before --output-format; text is full
    an.add_argument("--level", choices=tuple(LEVELS), default="default",
                    help="how much speculation a hint may rest on (default: default)")
    an.add_argument("--assume", action="append", default=[], metavar="KIND[:SUBJECT]",
                    help="confirm an assumption, e.g. pure:preprocess (repeatable)")
    an.add_argument("--deny", action="append", default=[], metavar="KIND[:SUBJECT]",
                    help="deny an assumption: hints that need it are dropped (repeatable)")
    an.add_argument("--select", default="", help="only these hints, e.g. HARP201,HARP202")
    an.add_argument("--ignore", default="", help="never these hints")
    an.add_argument("-j", "--jobs", type=int, default=0,
                    help="worker processes (default: 1 for small inputs, else all cores)")
    an.add_argument("--no-config", action="store_true",
                    help="do not read [tool.harp] from pyproject.toml or harp.toml")
    an.add_argument("--exclude", action="append", default=[], metavar="GLOB",
                    help="leave out files matching GLOB, relative to a folder given "
                         "(e.g. 'tests/*'; repeatable)")
    an.add_argument("--profile", metavar="PROFILE",
                    help="a `harp measure` profile: each hint gets what its line cost in "
                         "that run, the run confirms or denies how often code runs, hints "
                         "are ranked by measured cost, and costly lines with no hint are "
                         "listed")
    an.add_argument("--no-cache", action="store_true",
                    help="analyse everything again, and keep no results")
    an.add_argument("--cache-dir", metavar="DIR",
                    help=f"where results are kept (default: $HARP_CACHE_DIR, else "
                         f"{DEFAULT_CACHE_DIR} in the working directory)")
    rf = sub.add_parser("refactor", help="rewrite files to fix hints (prints a diff)")
    rf.add_argument("paths", nargs="+")
    rf.add_argument("--apply", action="store_true", help="rewrite the files in place")
    rf.add_argument("--unsafe-fixes", action="store_true",
                    help="also apply fixes marked unsafe")
    for a in ("--level", "--select", "--ignore"):
        rf.add_argument(a, **{k: v for k, v in _FEEDBACK_OPTIONS[a].items()})
    rf.add_argument("--assume", action="append", default=[], metavar="KIND[:SUBJECT]")
    rf.add_argument("--deny", action="append", default=[], metavar="KIND[:SUBJECT]")
    rf.add_argument("--no-config", action="store_true")
    rf.add_argument("--output-format", choices=("concise", "json", "github"), default="concise",
                    help="concise (default: the diff, or a line a fixed file, and what was "
                         "not fixed on stderr) or json (one object: files, declined, errors)")
    rf.add_argument("--exclude", action="append", default=[], metavar="GLOB")
    rf.add_argument("--verify", metavar="CMD",
                    help="run CMD (a short run of the program, or its tests) in a copy of "
                         "the project before and after the fixes; keep only the fixes "
                         "that keep its exit status and output; report the times")
    rf.add_argument("--no-counts", dest="counts", action="store_false",
                    help="with --verify: do not also run CMD under `harp measure` before "
                         "and after the kept fixes to count what they remove")
    rf.add_argument("--rtol", type=float, default=1e-5,
                    help="relative tolerance for numbers in CMD's output (default 1e-5)")
    rf.add_argument("--atol", type=float, default=1e-8,
                    help="absolute tolerance for numbers in CMD's output (default 1e-8)")
    rf.add_argument("--timeout", type=float, default=600,
                    help="seconds one run of CMD may take (default 600)")
    ms = sub.add_parser("measure", help="run a program once under counters and write a "
                                        "profile of what each line cost",
                        usage="harp measure [-o PROFILE] [--steps N] [--root DIR] "
                              "-- [python] SCRIPT|-m MODULE [ARGS...]")
    ms.add_argument("-o", "--output", default="harp-profile.json",
                    help="where the profile (JSON) goes (default: harp-profile.json)")
    ms.add_argument("--steps", type=int, default=None, metavar="N",
                    help="stop after N iterations of the loop that runs the training step")
    ms.add_argument("--root", action="append", default=[], metavar="DIR",
                    help="a folder of the program's own files (default: the script's "
                         "folder; repeatable)")
    ms.add_argument("program", nargs=argparse.REMAINDER,
                    help="the command, after `--`: python SCRIPT ARGS, or -m MODULE ARGS")
    sub.add_parser("server", help="run harp as a Language Server on stdin/stdout (for an "
                                  "editor)")
    ex = sub.add_parser("explain", help="print a hint's documentation")
    ex.add_argument("hint")
    return p


def cmd_import(args) -> int:
    from harp_ir.context import make_context
    from harp_ir.frontend.lower import lower_file
    from harp_ir.pipeline import build
    from harp_ir.trace import TraceError, add_traces, load_spec

    with make_context():
        try:
            module = lower_file(args.file)
        except FrontendError as e:
            print(e, file=sys.stderr)
            return 2
        status = 0
        if args.trace:
            try:
                errors = add_traces(module, load_spec(args.trace))
            except TraceError as e:
                errors = [str(e)]
            for error in errors:  # the static module is still printed
                print(error, file=sys.stderr)
            status = 1 if errors else 0
            build(["harp-graph-facts"]).run(module.operation)
        if args.graph:
            build(["harp-lower-graph"]).run(module.operation)
        text = module.operation.get_asm(enable_debug_info=not args.no_debuginfo,
                                        print_generic_op_form=args.mlir_print_op_generic)
    if args.output == "-":
        sys.stdout.write(text)
    else:
        try:
            with open(args.output, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as e:
            print(f"harp: error: cannot write '{args.output}': {e.strerror}", file=sys.stderr)
            return 2
    return status


_FEEDBACK_OPTIONS = {
    "--level": {"choices": tuple(LEVELS), "default": "default"},
    "--select": {"default": "", "help": "only these hints, e.g. HARP202,HARP502"},
    "--ignore": {"default": "", "help": "never these hints"},
}


def _feedback(args) -> Feedback:
    """The user's answers from the flags over the configuration; the configuration's
    `exclude` globs join `--exclude` (args.exclude)."""
    feedback = Feedback(args.level, _split(args.assume), _split(args.deny),
                        {i.upper() for i in _split([args.select])},
                        {i.upper() for i in _split([args.ignore])})
    if args.no_config:
        return feedback
    config = load_config(Path(args.paths[0]))
    args.exclude = [*args.exclude, *config.get("exclude", [])]
    return feedback.merged(config)


def cmd_refactor(args) -> int:
    # here, not at the top: `harp analyze` answered by its cache imports none of this
    from harp_ir.context import make_context
    from harp_ir.diagnostics import format_mlir_error
    from harp_ir.refactor import SourceFile, WriteError, files_to_fix, refactor_source

    try:
        feedback = _feedback(args)
    except ConfigError as e:
        print(f"harp: error: {e}", file=sys.stderr)
        return 2
    # the programs `harp analyze` sees: a directory is one, files given side by side are one
    tasks, unlisted = tasks_for(args.paths, 1, tuple(args.exclude))
    status = 2 if unlisted else 0
    report = _RefactorReport(args.output_format)
    for error in unlisted:
        report.error(error)
    args.task_of = {path: task for task in tasks for path in task.targets}
    with make_context():
        fixed = []  # (path, the file as read, its text, its outcome)
        to_fix = {}  # a task -> its files with something to fix (one analysis each)
        for path, task in args.task_of.items():
            if task not in to_fix:
                to_fix[task] = files_to_fix(task, feedback)
            plan = to_fix[task]
            if plan is not None and str(path) not in plan:
                if notebook.is_notebook(path):  # a cell that is not Python is left out
                    for error in notebook_errors(path):
                        report.error(error)
                        status = 2
                continue
            try:
                original = SourceFile.read(path)  # what a fix is computed on and checked
                text = read_source(path) if notebook.is_notebook(path) else \
                    decode_source(original.data, str(path))
                outcome = refactor_source(text, path, feedback, args.unsafe_fixes, task=task,
                                          first=plan.get(str(path)) if plan else None)
            except FrontendError as e:
                report.error(str(e))
                status = 2
                continue
            except ir.MLIRError as e:  # a module the verifier refuses: a bug of harp's
                for line in format_mlir_error(e, str(path)):
                    report.error(line)
                status = 2
                continue
            except OSError as e:
                report.error(f"{path}:1:1: error: cannot read: {e.strerror or e}")
                status = 2
                continue
            except Exception as e:  # noqa: BLE001  (a bug of harp's: the other files go on)
                report.error(str(internal_error(str(path), e)))
                status = 2
                continue
            if notebook.is_notebook(path):  # a cell that is not Python is left out
                for error in notebook_errors(path):
                    report.error(error)
                    status = 2
            for h, reason in outcome.declined:
                report.declined(in_cells(h), reason)
            if outcome.source != outcome.original:
                fixed.append((path, original, text, outcome))
        if args.verify and fixed:
            try:
                fixed = _verified(args, feedback, fixed)
            except _VerifyError as e:
                report.error(f"harp: error: --verify: {e}")
                report.finish()
                return 2
    for path, original, _, outcome in fixed:
        if outcome.source == outcome.original:
            continue
        if not args.apply:
            report.diff(path, outcome)
            continue
        try:
            original.write(_new_text(path, outcome))
        except (notebook.NotebookError, WriteError) as e:
            report.error(str(e) if isinstance(e, notebook.NotebookError)
                         else f"{path}:1:1: error: {e}")
            status = 2
            continue
        report.fixed(path, outcome)
    report.finish()
    return status


class _RefactorReport:
    """What `harp refactor` says: as it goes (diffs and "fixed" lines on stdout, errors
    and declined fixes on stderr); with `--output-format json`, one JSON object at the
    end: {"version", "files": [{file, applied: [{id, name, span, safety}], diff,
    written}], "declined": [{id, name, span, reason}], "errors"}; with `github`, workflow
    commands on stdout: a notice per fix (applied, or in the diff), a warning per fix not
    made and why, an error per error line."""

    def __init__(self, fmt: str):
        self.as_json, self.github = fmt == "json", fmt == "github"
        self.files: list[dict] = []
        self.not_fixed: list[dict] = []
        self.errors: list[str] = []

    def error(self, line: str) -> None:
        if self.as_json:
            self.errors.append(line)
        elif self.github:
            print(output.github_error(line))
        else:
            print(line, file=sys.stderr)

    def declined(self, hint, reason: str) -> None:
        if self.as_json:
            self.not_fixed.append({"id": hint.id, "name": hint.name,
                                   "span": hint.to_json()["span"], "reason": reason})
        elif self.github:
            print(output.github_command("warning", hint.span, f"{hint.id} {hint.name}",
                                        f"not fixed: {reason}"))
        else:
            print(f"{hint.span}: {hint.id} not fixed: {reason}", file=sys.stderr)

    def _file(self, path, outcome, written: bool) -> dict:
        return {"file": str(path), "written": written, "diff": outcome.diff(),
                "applied": [{"id": h.id, "name": h.name, "span": in_cells(h).to_json()["span"],
                             "safety": safety} for h, safety in outcome.applied]}

    def _notices(self, outcome, written: bool) -> None:
        for h, safety in outcome.applied:
            done = "fixed" if written else "fixable with `harp refactor --apply`"
            print(output.github_command("notice", in_cells(h).span, f"{h.id} {h.name}",
                                        f"{done} ({safety} fix): {h.refactoring}"))

    def diff(self, path, outcome) -> None:
        if self.as_json:
            self.files.append(self._file(path, outcome, False))
        elif self.github:
            self._notices(outcome, False)
        else:
            sys.stdout.write(outcome.diff())

    def fixed(self, path, outcome) -> None:
        if self.as_json:
            self.files.append(self._file(path, outcome, True))
        elif self.github:
            self._notices(outcome, True)
        else:
            print(f"{path}: fixed " + ", ".join(h.id for h, _ in outcome.applied))

    def finish(self) -> None:
        if self.as_json:
            json.dump({"version": 1, "files": self.files, "declined": self.not_fixed,
                       "errors": self.errors}, sys.stdout, indent=2)
            sys.stdout.write("\n")


def _new_text(path: Path, outcome) -> str:
    return notebook.rewrite(path, outcome.original, outcome.source) \
        if notebook.is_notebook(path) else outcome.source


class _VerifyError(Exception):
    pass


#: assumptions about how fast the program runs, which a run's output cannot confirm
_ABOUT_SPEED = {"hot-loop", "accelerator", "logging-cost", "loading-cost", "every-iteration"}


def _verified(args, feedback, fixed):
    """`fixed` with only the fixes a run of `args.verify` shows keep behaviour (see
    harp_ir/verify.py); reports each fix and the times on stderr."""
    from harp_ir.refactor import refactor_source

    root = Path.cwd().resolve()
    outside = [p for p, *_ in fixed if not p.resolve().is_relative_to(root)]
    if outside:
        raise _VerifyError(f"{outside[0]} is outside the current folder, the project that "
                           f"CMD runs in")
    say = functools.partial(print, file=sys.stderr)
    with tempfile.TemporaryDirectory(prefix="harp-verify-") as tmp:
        copy = verify.copy_project(root, Path(tmp))

        def run_with(allowed, stopped: Path | None = None,
                     command: str | None = None) -> verify.Run:
            for path, original, text, _ in fixed:
                chosen = {k for p, k in allowed if p == path}
                target = copy / path.resolve().relative_to(root)
                if path == stopped:
                    target.write_bytes(verify.stopped_at_once(path, original.data))
                    continue
                if not chosen:
                    target.write_bytes(original.data)
                    continue
                outcome = refactor_source(text, path, feedback, args.unsafe_fixes,
                                          allow=chosen, task=args.task_of[path])
                target.write_bytes(original.encode(_new_text(path, outcome)))
            return verify.run_command(command or args.verify, copy, args.timeout)

        baseline = [run_with([]), run_with([])]
        unstable = verify.difference(baseline[0], baseline[1], args.rtol, args.atol)
        if unstable:
            raise _VerifyError(f"two runs of the unchanged program differ ({unstable}): "
                               f"CMD must print the same on every run")
        before = min(baseline, key=lambda r: r.seconds)
        if before.status != 0:
            last = (before.stderr.strip().splitlines() or ["no output"])[-1]
            raise _VerifyError(f"CMD fails on the unchanged program (exit {before.status}: "
                               f"{last}): there is no behaviour to compare")
        say(f"harp: verify: unchanged program: {before.describe()}")
        unrun = {path for path, *_ in fixed
                 if not verify.difference(before, run_with([], stopped=path), args.rtol,
                                          args.atol)}
        for path in sorted(unrun):
            say(f"{path}:1:1: warning: --verify: CMD does not run this file (it behaves the "
                f"same when the file stops at once): its fixes are not confirmed, not kept")
        if len(unrun) == len(fixed):
            raise _VerifyError("CMD does not run the files the fixes change (it behaves the "
                               "same when they stop at once): there is nothing to confirm")
        candidates = [(path, key) for path, _, _, outcome in fixed if path not in unrun
                      for key in outcome.keys]
        runs = {}

        def check(subset) -> str:
            run = run_with(subset)
            runs[tuple(subset)] = run
            return verify.difference(before, run, args.rtol, args.atol)

        kept, dropped = verify.bisect_fixes(candidates, check)
        hints_of = {(p, k): h for p, _, _, o in fixed
                    for (h, _), k in zip(o.applied, o.keys, strict=True)}
        for fix, why in dropped:
            h = hints_of[fix]
            say(f"{in_cells(h).span}: {h.id} dropped: the run changed: {why}")
        for fix in kept:
            h = hints_of[fix]
            confirmed = ", ".join(f"{a.kind} ({a.subject})" if a.subject else a.kind
                                  for a in h.assumptions if a.status != "proved" and
                                  a.kind not in _ABOUT_SPEED)
            say(f"{in_cells(h).span}: {h.id} kept: the run behaves the same" +
                (f"; the run confirmed: {confirmed}" if confirmed else ""))
        if kept:
            after = runs.get(tuple(kept)) or run_with(kept)
            say(f"harp: verify: with {len(kept)} fix{'es' if len(kept) > 1 else ''}: "
                f"{after.describe()} ({before.seconds / max(after.seconds, 1e-9):.2f}x)")
            if args.counts:
                say(f"harp: verify: {_counted(args.verify, Path(tmp), run_with, kept)}")
    result = []
    for path, original, text, _ in fixed:
        chosen = {k for p, k in kept if p == path}
        result.append((path, original, text, refactor_source(
            text, path, feedback, args.unsafe_fixes, allow=chosen, task=args.task_of[path])))
    return result


def _counted(command: str, scratch: Path, run_with, kept) -> str:
    """What the kept fixes change in `harp measure`'s counts of one run of CMD each way
    (waits, copies, ops, graph ops, traces: figures that hold on any machine)."""
    from harp_ir import measure

    totals = []
    for allowed in ([], kept):
        profile = scratch / f"profile-{len(totals)}.json"
        measured = verify.measured(command, profile)
        if measured is None:
            return ("counts not measured: CMD is not one Python program (`python SCRIPT`, "
                    "`python -m MODULE`, `pytest`)")
        run = run_with(allowed, command=measured)
        try:
            totals.append(measure.totals(json.loads(profile.read_text(encoding="utf-8"))))
        except (OSError, ValueError, KeyError):
            last = (run.stderr.strip().splitlines() or ["no output"])[-1]
            return f"counts not measured: `harp measure` of CMD failed ({last})"
    return f"counted by harp measure, before -> after: {measure.changes(*totals)}"


def _split(values) -> set[str]:
    return {v.strip() for item in values for v in item.split(",") if v.strip()}


def cmd_analyze(args) -> int:
    try:
        feedback = _feedback(args)
    except ConfigError as e:
        print(f"harp: error: {e}", file=sys.stderr)
        return 2
    exclude = tuple(args.exclude)
    jobs = -max(args.jobs, 0)  # analyze_paths caps it by the files it lists (jobs_for)
    fmt = args.output_format or {"text": "full"}.get(args.format, args.format) or "concise"
    progress = _progress if sys.stderr.isatty() and fmt in ("concise", "full") else None
    cache = None if args.no_cache else Cache(
        args.cache_dir or os.environ.get("HARP_CACHE_DIR") or DEFAULT_CACHE_DIR)
    unhinted = None
    if args.profile:
        from harp_ir import profiled

        try:
            profiled.Profile.load(args.profile)
        except profiled.ProfileError as e:
            print(f"harp: error: {e}", file=sys.stderr)
            return 2
    found, errors = analyze_paths(args.paths, jobs, progress, exclude, cache)
    if progress:
        sys.stderr.write("\r\033[K")
    if args.profile:
        found, unhinted = profiled.apply(found, args.profile)
    found = filter_hints(found, feedback)
    output.render(fmt, found, errors, feedback.level, sys.stdout, sys.stderr, unhinted)
    if errors:
        return 2
    return 1 if found else 0


def _progress(done: int, total: int) -> None:
    sys.stderr.write(f"\rharp: analysed {done}/{total} files")
    sys.stderr.flush()


def cmd_measure(args) -> int:
    from harp_ir import measure

    program = args.program[1:] if args.program[:1] == ["--"] else args.program
    try:
        command = measure.Command.parse(program)
    except measure.MeasureError as e:
        print(f"harp: error: {e}", file=sys.stderr)
        return 2
    if args.steps is not None and args.steps < 1:
        print("harp: error: --steps must be at least 1", file=sys.stderr)
        return 2
    profile, status, _ = measure.run(command, args.root or None, args.steps)
    try:
        measure.write(profile, args.output)
    except OSError as e:
        print(f"harp: error: cannot write '{args.output}': {e.strerror}", file=sys.stderr)
        return 2
    print(measure.table(profile) + f"\nprofile: {args.output}", file=sys.stderr)
    return status


def cmd_server(args) -> int:
    from harp_ir import server

    return server.main()


def cmd_explain(args) -> int:
    from harp_ir.passes import rule_for

    rule = rule_for(args.hint.upper())
    if rule is None:
        print(f"harp: error: unknown hint '{args.hint}'; see harp --list-hints",
              file=sys.stderr)
        return 2
    spec, fix = rule.hint, rule.fix
    print(f"{spec.id} {spec.name}\n\nWhat: {spec.finds}.\n\nWhy: {spec.why}.\n")
    if spec.before:
        print("Example, before:\n\n" + _indent(spec.before) + "\nafter:\n\n"
              + _indent(spec.after))
    print(f"Fix: {spec.refactoring}.\n")
    if fix:
        print(f"Automatic fix ({fix.summary}): {fix.rewrite}.\n\n"
              f"It declines when: {fix.declines}.\n")
    else:
        print("Automatic fix: none.\n")
    print("May assume (each hint lists the ones it rests on, with risk and status):")
    for kind in spec.assumptions:
        print(f"    {kind:<24} {ASSUMPTIONS[kind]}")
    print(f"\nPass: --{rule.flag}\nDocumentation: this text; the README's section "
          f"{spec.anchor}")
    return 0


def _indent(code: str) -> str:
    return "".join(f"    {line}\n" for line in code.splitlines())


def _main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.list_hints:
        for h in hints.HINTS:
            print(f"{h.id}  {h.name:<28} {h.finds}")
        return 0
    commands = {"import": cmd_import, "analyze": cmd_analyze, "explain": cmd_explain,
                "refactor": cmd_refactor, "server": cmd_server, "measure": cmd_measure}
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    return commands[args.command](args)


main = interruptible(_main, "harp")

if __name__ == "__main__":
    sys.exit(main())
