"""The speedups of harp's refactorings, measured: `harp refactor --apply` on a copy of each
program in bench/programs/, then the original and the refactored program run alternately
in fresh processes, timed, and their outputs compared.

    python bench/run.py [PROGRAM ...] [--runs 3] [--scale 1.0] [--device cpu|cuda]
                        [--assume KIND ...] [--counts] [--json bench/results.json]
                        [--readme README.md]

Prints a table (median wall time of each version, speedup, the hints applied, whether the
outputs agree), the geometric mean speedup for TensorFlow and for PyTorch, and writes the
results as JSON. A program that gets no safe fix counts as 1.00x (it is not run): harp
declining an unproved fix is an outcome, not a failure. Exits 1 when a program's outputs
differ, its refactoring fails, or a run fails. Programs read HARP_BENCH_SCALE (a factor on
their size) and HARP_BENCH_DEVICE; a program's framework is its name's prefix (`tf_`,
`torch_`). `--assume KIND` passes the user's confirmation of an assumption to
`harp refactor` (`--assume loop-runs`: the programs' loops run, as their author knows).
`--counts` also runs each version once under `harp measure` and adds what the fixes
changed, counted (`sync 1,200 -> 0`): what a CPU's wall time cannot show. `--readme`
writes the table between the README's `bench-run` markers. Programs named on the command
line replace their rows of the JSON and the README table and keep the others.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

PROGRAMS = Path(__file__).resolve().parent / "programs"
sys.path.insert(0, str(PROGRAMS.parent))
from measure_programs import counted, write_table  # noqa: E402  (a sibling script)

from harp_ir.measure import changes  # noqa: E402

_NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")


@dataclass
class Result:
    program: str
    framework: str
    hints: list[str] = field(default_factory=list)
    original_s: list[float] = field(default_factory=list)
    refactored_s: list[float] = field(default_factory=list)
    outputs_agree: bool = False
    error: str = ""
    note: str = ""
    counted: str = ""  # with --counts: what `harp measure` counted before -> after

    @property
    def speedup(self) -> float:
        if self.note:
            return 1.0
        if not self.original_s or not self.refactored_s:
            return float("nan")
        return statistics.median(self.original_s) / statistics.median(self.refactored_s)


def same_output(a: str, b: str, rtol: float, atol: float) -> bool:
    """Equal text once numbers are compared within tolerance (reductions may reorder)."""
    if _NUMBER.sub("#", a) != _NUMBER.sub("#", b):
        return False
    return all(abs(float(x) - float(y)) <= atol + rtol * max(abs(float(x)), abs(float(y)))
               for x, y in zip(_NUMBER.findall(a), _NUMBER.findall(b), strict=True))


def run_program(path: Path, env: dict, timeout: float) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run([sys.executable, str(path)], capture_output=True, text=True,
                          env=env, timeout=timeout, cwd=path.parent)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{path.name} exited {done.returncode}: {done.stderr[-800:]}")
    return elapsed, done.stdout


def refactor(copy: Path, assume: list[str]) -> list[str]:
    """Apply harp's safe fixes to `copy` in place, with the assumptions the user confirms;
    the ids of the hints it fixed."""
    confirmed = [arg for kind in assume for arg in ("--assume", kind)]
    done = subprocess.run([sys.executable, "-m", "harp_ir.cli.harp", "refactor", "--apply",
                           *confirmed, str(copy)], capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise RuntimeError(f"harp refactor failed: {done.stderr[-800:]}")
    fixed = re.search(r": fixed (.*)$", done.stdout, re.M)
    return fixed.group(1).split(", ") if fixed else []


def measure(program: Path, args, env: dict) -> Result:
    framework = "tensorflow" if program.name.startswith("tf_") else "pytorch"
    result = Result(program.stem, framework)
    with tempfile.TemporaryDirectory(prefix="harp-bench-") as tmp:
        original = Path(tmp) / "original" / program.name
        refactored = Path(tmp) / "refactored" / program.name
        for copy in (original, refactored):
            copy.parent.mkdir()
            shutil.copy(program, copy)
        try:
            result.hints = refactor(refactored, args.assume)
            if not result.hints:
                result.outputs_agree, result.error = True, ""
                result.note = "no safe fix (unchanged)"
                return result
            outputs = set()
            for _ in range(args.runs):
                for path, times in ((original, result.original_s),
                                    (refactored, result.refactored_s)):
                    elapsed, out = run_program(path, env, args.timeout)
                    times.append(elapsed)
                    outputs.add((path == original, out))
            if args.counts:
                result.counted = changes(counted(original, env, args.timeout),
                                         counted(refactored, env, args.timeout))
            originals = [o for is_orig, o in outputs if is_orig]
            result.outputs_agree = all(same_output(originals[0], o, args.rtol, args.atol)
                                       for _, o in outputs)
            if not result.outputs_agree:
                result.error = "outputs differ: " + " | ".join(
                    o.strip()[-200:] for _, o in sorted(outputs))
        except (RuntimeError, subprocess.TimeoutExpired) as e:
            result.error = str(e)
    return result


def geomean(values: list[float]) -> float:
    values = [v for v in values if v > 0 and math.isfinite(v)]
    return math.exp(sum(map(math.log, values)) / len(values)) if values else float("nan")


def table(results: list[Result]) -> str:
    with_counts = any(r.counted for r in results)
    rows = ["| program | framework | original (s) | refactored (s) | speedup | outputs | "
            "hints applied |" + (" counted: before -> after |" if with_counts else ""),
            "| --- | --- | ---: | ---: | ---: | --- | --- |" + (" --- |" if with_counts
                                                               else "")]
    for r in results:
        orig = f"{statistics.median(r.original_s):.2f}" if r.original_s else "-"
        new = f"{statistics.median(r.refactored_s):.2f}" if r.refactored_s else "-"
        agree = "agree" if r.outputs_agree else f"**{r.error[:60] or 'differ'}**"
        if r.note:
            orig, new, agree = "-", "-", r.note
        counts = {h: r.hints.count(h) for h in dict.fromkeys(r.hints)}
        hints = ", ".join(f"{h}" + (f" x{n}" if n > 1 else "") for h, n in counts.items())
        rows.append(f"| {r.program} | {r.framework} | {orig} | {new} | {r.speedup:.2f}x | "
                    f"{agree} | {hints} |" + (f" {r.counted or '-'} |" if with_counts else ""))
    return "\n".join(rows)


def write_readme(readme: Path, rows: list[str], runs: int) -> None:
    """The README's `bench-run` table with these programs' rows: a row of a program not
    run this time is kept, so one program can be re-measured alone; the geometric means
    are of the rows as they stand."""
    text = readme.read_text(encoding="utf-8")
    old = text[text.index("<!-- bench-run:begin"):text.index("<!-- bench-run:end -->")]
    kept = {r.split("|")[1].strip(): r for r in old.splitlines()[1:]
            if r.startswith("| ") and not r.startswith(("| program", "| ---"))}
    kept.update({r.split("|")[1].strip(): r for r in rows[2:]})
    body = [*rows[:2], *(kept[name] for name in sorted(kept))]
    speedups: dict[str, list[float]] = {"tensorflow": [], "pytorch": []}
    for row in body[2:]:
        cells = [c.strip() for c in row.split("|")]
        speedups.setdefault(cells[2], []).append(float(cells[5].rstrip("x")))
    means = "; ".join(f"geometric mean speedup, {fw}: {geomean(v):.2f}x"
                      for fw, v in speedups.items() if v)
    write_table(readme, [*body, "", f"{means} ({runs} runs of each version)"], "bench-run")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("programs", nargs="*", help="program names or paths (default: all)")
    p.add_argument("--runs", type=int, default=3, help="runs of each version (default 3)")
    p.add_argument("--scale", type=float, default=1.0, help="size factor for the programs")
    p.add_argument("--device", default="cpu", help="cpu or cuda (PyTorch programs)")
    p.add_argument("--json", default=str(Path(__file__).parent / "results.json"))
    p.add_argument("--rtol", type=float, default=1e-3)
    p.add_argument("--atol", type=float, default=1e-4)
    p.add_argument("--timeout", type=float, default=600)
    p.add_argument("--counts", action="store_true",
                   help="also run each version once under `harp measure` and report the "
                        "counters that changed (waits, copies, graph ops, traces)")
    p.add_argument("--readme", metavar="README",
                   help="also write the table between the README's `bench-run` markers")
    p.add_argument("--assume", action="append", default=[], metavar="KIND",
                   help="an assumption the user confirms, passed to harp refactor")
    args = p.parse_args(argv)
    programs = [Path(n) if n.endswith(".py") else PROGRAMS / f"{n}.py"
                for n in args.programs] or sorted(PROGRAMS.glob("*.py"))
    env = {**os.environ, "HARP_BENCH_SCALE": str(args.scale),
           "HARP_BENCH_DEVICE": args.device, "TF_CPP_MIN_LOG_LEVEL": "2"}
    results = []
    for program in programs:
        print(f"{program.stem} ...", file=sys.stderr, flush=True)
        results.append(measure(program, args, env))
        r = results[-1]
        print(f"  {r.speedup:.2f}x, outputs {'agree' if r.outputs_agree else 'DIFFER'}"
              f"{': ' + r.error if r.error else ''}", file=sys.stderr, flush=True)
    print(table(results))
    means = {fw: geomean([r.speedup for r in results if r.framework == fw])
             for fw in ("tensorflow", "pytorch")}
    summary = [f"geometric mean speedup, {fw}: {mean:.2f}x" for fw, mean in means.items()
               if not math.isnan(mean)]
    print("\n".join(summary))
    if args.readme:
        write_readme(Path(args.readme), table(results).splitlines(), args.runs)
    def finite(x):
        return round(x, 3) if isinstance(x, float) and math.isfinite(x) else None

    rows = {r.program: {**asdict(r), "speedup": finite(r.speedup)} for r in results}
    kept = []
    if args.programs and Path(args.json).exists():  # a re-measured program replaces its row
        kept = [row for row in json.loads(Path(args.json).read_text())["programs"]
                if row["program"] not in rows]
    programs = sorted([*kept, *rows.values()], key=lambda row: row["program"])
    Path(args.json).write_text(json.dumps({
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, {platform.python_version()}",
        "runs": args.runs, "scale": args.scale, "device": args.device,
        "assume": args.assume,
        "geomean_speedup": {fw: finite(geomean([row["speedup"] or math.nan for row in programs
                                                if row["framework"] == fw]))
                            for fw in ("tensorflow", "pytorch")},
        "programs": programs,
    }, indent=2) + "\n")
    return 0 if all(r.outputs_agree and not r.error for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
