"""`harp measure` on every program of bench/programs/: what each one does on the device
boundary, counted, and what measuring costs in wall time; with `--fixed`, what harp's
fixes remove, counted.

    python bench/measure_programs.py [PROGRAM ...] [--scale 0.2] [--json FILE]
                                     [--fixed] [--readme README.md]

Each program runs twice in fresh processes: plainly, then under `harp measure`; the table
gives both wall times (the overhead is their ratio, including the frameworks' start-up in
both) and the totals of the profile's main counters. With `--fixed`, each program is
measured before and after `harp refactor --apply` on a copy (as `bench/run.py` does), and
the table gives the counters that changed: a machine-independent account of what each fix
removed (waits on the device, copies, graph ops, traces). Exits 1 when a program fails
under `harp measure` but not plainly.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from harp_ir.measure import COMPARED, changes, totals

PROGRAMS = Path(__file__).resolve().parent / "programs"
#: the overhead table's columns: the counters any of the programs makes
SHOWN = tuple(k for k in COMPARED if k not in ("keras_batches", "graphs_kept"))


def counted(program: Path, env: dict, timeout: float = 900) -> dict[str, int]:
    """The totals of every counter of one run of `program` under `harp measure`."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "profile.json"
        done = subprocess.run([sys.executable, "-m", "harp_ir.cli.harp", "measure", "-o",
                               str(out), "--", str(program)], capture_output=True, text=True,
                              env=env, timeout=timeout, cwd=program.parent)
        if done.returncode != 0 or not out.exists():
            raise RuntimeError(f"harp measure {program.name} exited {done.returncode}: "
                               f"{done.stderr[-800:]}")
        return totals(json.loads(out.read_text()))


def fixed_table(names: list[str], env: dict) -> tuple[list[str], bool]:
    """Each program counted before and after harp's safe fixes."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from run import refactor  # the benchmark's own way of applying the fixes

    table = ["| program | hints applied | counted: before -> after |", "| --- | --- | --- |"]
    failed = False
    for name in names:
        with tempfile.TemporaryDirectory(prefix="harp-measure-") as tmp:
            original = PROGRAMS / f"{name}.py"
            copy = Path(tmp) / original.name
            shutil.copy(original, copy)
            try:
                hints = refactor(copy, [])
                row = "no safe fix" if not hints else \
                    changes(counted(original, env), counted(copy, env))
            except (RuntimeError, subprocess.TimeoutExpired) as e:
                failed, hints, row = True, [], f"**failed: {str(e)[:80]}**"
        table.append(f"| {name} | {', '.join(hints) or '-'} | {row} |")
        print(table[-1], flush=True)
    return table, failed


def timed(command: list[str], env: dict) -> tuple[float, int]:
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=900)
    return time.perf_counter() - started, done.returncode


def write_table(readme: Path, table: list[str], marker: str = "measure-programs") -> None:
    """Put the table between the README's `marker` comments."""
    text = readme.read_text(encoding="utf-8")
    begin = text.index(f"<!-- {marker}:begin")
    begin = text.index("\n", begin) + 1
    end = text.index(f"<!-- {marker}:end -->")
    readme.write_text(text[:begin] + "\n".join(table) + "\n" + text[end:], encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("programs", nargs="*")
    p.add_argument("--scale", type=float, default=0.2, help="size factor (default 0.2)")
    p.add_argument("--json", default=None, help="also write the rows as JSON here")
    p.add_argument("--fixed", action="store_true",
                   help="count each program before and after harp's safe fixes instead")
    p.add_argument("--readme", default=None,
                   help="write the table into this file between its measure-programs "
                        "(measure-fixes with --fixed) markers")
    args = p.parse_args(argv)
    names = args.programs or sorted(f.stem for f in PROGRAMS.glob("*.py"))
    env = {**os.environ, "HARP_BENCH_SCALE": str(args.scale), "TF_CPP_MIN_LOG_LEVEL": "3"}
    if args.fixed:
        table, failed = fixed_table(names, env)
        if args.readme:
            write_table(Path(args.readme), table, "measure-fixes")
        return 1 if failed else 0
    rows, failed = [], False
    table = ["| program | plain (s) | measured (s) | overhead | " + " | ".join(SHOWN) + " |",
             "| --- | ---: | ---: | ---: | " + " | ".join("---:" for _ in SHOWN) + " |"]
    print("\n".join(table))
    for name in names:
        program = str(PROGRAMS / f"{name}.py")
        plain, plain_status = timed([sys.executable, program], env)
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "profile.json"
            measured, status = timed([sys.executable, "-m", "harp_ir.cli.harp", "measure",
                                      "-o", str(out), "--", program], env)
            profile = json.loads(out.read_text()) if out.exists() else None
        if profile is None or (status != 0 and plain_status == 0):
            failed = True
            table.append(f"| {name} | {plain:.1f} | failed ({status}) | | "
                         + " | ".join("" for _ in SHOWN) + " |")
            print(table[-1])
            continue
        summed = totals(profile)
        rows.append({"program": name, "plain_s": round(plain, 2),
                     "measured_s": round(measured, 2), **summed})
        table.append(f"| {name} | {plain:.1f} | {measured:.1f} | {measured / plain:.2f}x | "
                     + " | ".join(f"{summed.get(k, 0):,}" for k in SHOWN) + " |")
        print(table[-1], flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1) + "\n")
    if args.readme:
        write_table(Path(args.readme), table)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
