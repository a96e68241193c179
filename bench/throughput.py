"""harp's own speed: `harp analyze` (every pass, default level) over a large real corpus.

    python bench/throughput.py [CORPUS_DIR] [--jobs 1,2] [--profile-dir DIR]

CORPUS_DIR defaults to the installed torch package (about 1.2 million lines). Reports,
for each number of worker processes, the wall time, lines per second and peak memory of
`harp analyze CORPUS_DIR` run as users run it (a fresh process); how the time of one file
grows when it is 1x, 2x, 4x and 8x as long; and where the time goes (a profile of
`harp analyze` on --profile-dir, torch/nn by default, grouped by stage).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

import harp_ir  # noqa: F401  (MLIR before TensorFlow)
from harp_ir.context import make_context
from harp_ir.frontend.lower import lower_source
from harp_ir.report import analyze_module, analyze_paths, python_files


def count_lines(files: list[Path]) -> int:
    return sum(f.read_bytes().count(b"\n") for f in files)


def whole_corpus(corpus: Path, jobs: int, lines: int) -> str:
    """`harp analyze -j JOBS corpus` in a fresh process: time, lines/s, peak RSS (of the
    largest of its processes, measured by a wrapper that waits for it alone)."""
    wrapper = ("import resource, subprocess, sys\n"
               "done = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
               "sys.stderr.write(done.stderr)\n"
               "print(done.stdout.count('\"id\": \"HARP'), done.returncode,\n"
               "      resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", wrapper, sys.executable, "-m",
                           "harp_ir.cli.harp", "analyze", "-j", str(jobs), "--no-config",
                           "--format", "json", str(corpus)], capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    hints, status, peak_kb = map(int, done.stdout.split())
    if status not in (0, 1, 2):
        raise SystemExit(f"harp analyze failed ({status}): {done.stderr[-800:]}")
    return (f"-j{jobs}: {lines:,} lines in {elapsed:.1f} s = {lines / elapsed:,.0f} lines/s; "
            f"peak RSS {peak_kb / 1024:.0f} MB; {hints} hints")


def growth(files: list[Path]) -> list[str]:
    """Analysis time of one mid-sized file repeated 1x..8x: linear growth is the goal."""
    sample = sorted(files, key=lambda f: f.stat().st_size)[len(files) * 9 // 10]
    text = sample.read_text(encoding="utf-8", errors="replace")
    rows = [f"growth ({sample.name}, {text.count(chr(10))} lines):"]
    with make_context():
        for k in (1, 2, 4, 8):
            start = time.perf_counter()
            analyze_module(lower_source(text * k, "sample.py"))
            rows.append(f"  {k}x: {time.perf_counter() - start:.2f} s")
    return rows


def profile(corpus: Path) -> list[str]:
    """Where the wall time of `harp analyze corpus` (one process) goes, by stage: the
    functions that do each stage are wrapped with a timer (a profiler would inflate the
    many small calls of libcst's visitors)."""
    from harp_ir import report
    from harp_ir.frontend import lower, program

    totals: dict[str, float] = {}
    nested: list[float] = []  # time spent in inner timed stages, per open stage

    def timed(stage, function):
        """Own time: lowering a module lowers the modules it imports, whose parse and
        positions are counted once, in their own stages."""
        def wrapper(*args, **kwargs):
            start = time.perf_counter()
            nested.append(0.0)
            try:
                return function(*args, **kwargs)
            finally:
                elapsed = time.perf_counter() - start
                inner = nested.pop()
                totals[stage] = totals.get(stage, 0.0) + elapsed - inner
                if nested:
                    nested[-1] += elapsed
        return wrapper

    patches = [(program, "parse", "parse (libcst)"),
               (lower, "positions", "source positions (libcst PositionProvider)"),
               (lower.Lowerer, "lower_into", "lowering to the host dialect, with facts"),
               (report, "analyze_module", "verification and the analysis passes")]
    saved = [(owner, name, getattr(owner, name)) for owner, name, _ in patches]
    for owner, name, stage in patches:
        setattr(owner, name, timed(stage, getattr(owner, name)))
    try:
        with make_context():
            start = time.perf_counter()
            analyze_paths([str(corpus)], 1)
            elapsed = time.perf_counter() - start
    finally:
        for owner, name, function in saved:
            setattr(owner, name, function)
    totals["other (files, imports between modules, reports)"] = elapsed - sum(totals.values())
    rows = [f"where the time goes, `harp analyze {corpus}` ({elapsed:.1f} s):"]
    rows += [f"  {share / elapsed:6.1%}  {stage}"
             for stage, share in sorted(totals.items(), key=lambda kv: -kv[1])]
    return rows


def main(argv: list[str] | None = None) -> None:
    import torch

    root = Path(torch.__file__).parent
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("corpus", nargs="?", default=str(root))
    p.add_argument("--jobs", default="1,2",
                   help="worker counts to measure (default 1,2; empty: none)")
    p.add_argument("--profile-dir", default=str(root / "nn"))
    p.add_argument("--no-profile", action="store_true")
    args = p.parse_args(argv)
    corpus = Path(args.corpus)
    files = python_files([str(corpus)])[0]
    lines = count_lines(files)
    print(f"corpus {corpus}: {len(files):,} files, {lines:,} lines", flush=True)
    for jobs in (int(j) for j in args.jobs.split(",") if j):
        print(whole_corpus(corpus, jobs, lines), flush=True)
    print("\n".join(growth(files)), flush=True)
    if not args.no_profile:
        print("\n".join(profile(Path(args.profile_dir))))


if __name__ == "__main__":
    main()
