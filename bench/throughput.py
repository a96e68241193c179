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
import cProfile
import pstats
import resource
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
    """`harp analyze -j JOBS corpus` in a fresh process: time, lines/s, peak RSS."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "harp_ir.cli.harp", "analyze", "-j",
                           str(jobs), "--no-config", "--format", "json", str(corpus)],
                          capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    peak = max(before, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) / 1024
    if done.returncode not in (0, 1, 2):
        raise SystemExit(f"harp analyze failed ({done.returncode}): {done.stderr[-800:]}")
    hints = done.stdout.count('"id": "HARP')
    return (f"-j{jobs}: {lines:,} lines in {elapsed:.1f} s = {lines / elapsed:,.0f} lines/s; "
            f"peak RSS of one process {peak:.0f} MB; {hints} hints")


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


#: profile entries by stage: the first function name (file:function) that matches
STAGES = (
    ("parse (libcst)", ("libcst/_parser", "parse_module")),
    ("positions and scopes (libcst metadata)", ("libcst/metadata",)),
    ("lowering to the host dialect", ("frontend/lower.py",)),
    ("facts and summaries", ("frontend/facts.py", "frontend/summaries.py")),
    ("verification", ("verify",)),
    ("analysis passes", ("harp_ir/passes/", "/passes/", "analysis.py")),
)


def profile(corpus: Path) -> list[str]:
    """Own time of every function in `harp analyze corpus`, grouped by stage."""
    profiler = cProfile.Profile()
    with make_context():
        start = time.perf_counter()
        profiler.runcall(analyze_paths, [str(corpus)], 1)
        elapsed = time.perf_counter() - start
    stats = pstats.Stats(profiler)
    totals: dict[str, float] = {}
    for (filename, _, function), (_, _, own, _, _) in stats.stats.items():
        where = f"{filename}:{function}"
        stage = next((name for name, keys in STAGES if any(k in where for k in keys)),
                     "other (MLIR bindings, Python runtime)")
        totals[stage] = totals.get(stage, 0.0) + own
    whole = sum(totals.values()) or 1.0
    rows = [f"profile of `harp analyze {corpus}` ({elapsed:.1f} s under cProfile):"]
    rows += [f"  {share / whole:6.1%}  {stage}"
             for stage, share in sorted(totals.items(), key=lambda kv: -kv[1])]
    return rows


def main(argv: list[str] | None = None) -> None:
    import torch

    root = Path(torch.__file__).parent
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("corpus", nargs="?", default=str(root))
    p.add_argument("--jobs", default="1,2", help="worker counts to measure (default 1,2)")
    p.add_argument("--profile-dir", default=str(root / "nn"))
    p.add_argument("--no-profile", action="store_true")
    args = p.parse_args(argv)
    corpus = Path(args.corpus)
    files = python_files([str(corpus)])[0]
    lines = count_lines(files)
    print(f"corpus {corpus}: {len(files):,} files, {lines:,} lines", flush=True)
    for jobs in (int(j) for j in args.jobs.split(",")):
        print(whole_corpus(corpus, jobs, lines), flush=True)
    print("\n".join(growth(files)), flush=True)
    if not args.no_profile:
        print("\n".join(profile(Path(args.profile_dir))))


if __name__ == "__main__":
    main()
