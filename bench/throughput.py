"""harp's own speed: `harp analyze` (every pass, default level) over a large real corpus.

    python bench/throughput.py [CORPUS_DIR] [--jobs 1,2] [--profile-dir DIR]

CORPUS_DIR defaults to the installed torch package (about 1.2 million lines). Reports,
for each number of worker processes, the wall time, lines per second and peak memory of
`harp analyze CORPUS_DIR` run as users run it (a fresh process); how the time of one file
grows when it is 1x, 2x, 4x and 8x as long; the same for `harp-opt`'s whole hint
pipeline over textual IR against `harp analyze`, and for each pass alone; peak memory
per 100,000 lines, as one program of many files and as one file; and where the time goes
(a profile of `harp analyze` on --profile-dir, torch/nn by default, grouped by stage).
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
                           "--no-cache", "--output-format", "json", str(corpus)],
                          capture_output=True, text=True)
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


def training_program(functions: int) -> str:
    """A training script of `functions` training loops (about 23 lines each), each with
    a sync, an invariant copy and a host draw per step: every hint pass has work."""
    parts = ["import numpy as np\nimport torch\nimport torch.nn as nn\n"]
    for i in range(functions):
        parts.append(
            f"\n\nclass Net{i}(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
            f"        self.fc = nn.Linear(8, 8)\n\n    def forward(self, x):\n"
            f"        return torch.relu(self.fc(x))\n\n\n"
            f"def train{i}(model, steps=1000):\n"
            f"    opt = torch.optim.SGD(model.parameters(), lr=0.1)\n    total = 0.0\n"
            f"    for step in range(steps):\n        x = torch.randn(16, 8).cuda()\n"
            f"        w = torch.ones(8).cuda()\n        loss = (model(x) * w).sum()\n"
            f"        opt.zero_grad()\n        loss.backward()\n        opt.step()\n"
            f"        total += loss.item()\n    return total\n")
    parts.append("\n\nfor epoch in range(3):\n" +
                 "".join(f"    train{i}(Net{i}().cuda())\n" for i in range(functions)))
    return "".join(parts)


def harp_opt_growth() -> list[str]:
    """The whole hint pipeline driven by MLIR's pass manager from textual IR (what
    `harp-opt --pass-pipeline` does), against `harp analyze`'s in-process analysis of the
    same program (lowering included), for a training program of about 1,000 lines and 2x,
    4x, 8x that, with lines per second through `harp import` + `harp-opt`; then each pass
    alone at 1x and 8x. harp-opt verifies after a run of hint passes (they only annotate)
    unless told not to, analyze once."""
    from torch_mlir import ir

    from harp_ir import pipeline
    from harp_ir.passes import analysis_pipeline

    rows = ["harp-opt, whole hint pipeline, vs harp analyze (a generated training program):"]
    asms = {}
    with make_context():
        for k in (1, 2, 4, 8):
            text = training_program(40 * k)
            lines = text.count("\n")
            start = time.perf_counter()
            analyze_module(lower_source(text, "train.py"))
            analyzed = time.perf_counter() - start
            start = time.perf_counter()
            asm = asms[k] = lower_source(text, "train.py").operation.get_asm(
                enable_debug_info=True)
            imported = time.perf_counter() - start
            opt = []
            for verify_each in (True, False):  # MLIR's default, and --no-verify-each
                start = time.perf_counter()
                module = ir.Module.parse(asm)
                pipeline.run(list(analysis_pipeline()), module.operation, verify_each)
                opt.append(time.perf_counter() - start)
            rows.append(f"  {k}x ({lines:,} lines): harp analyze {analyzed:.2f} s; harp-opt "
                        f"{opt[0]:.2f} s ({opt[0] / analyzed:.1f}x), --no-verify-each "
                        f"{opt[1]:.2f} s; import + harp-opt "
                        f"{lines / (imported + opt[0]):,.0f} lines/s")
        rows.append("each pass alone (parse + pass + verify), 1x -> 8x:")
        for flag in analysis_pipeline():
            took = []
            for k in (1, 8):
                start = time.perf_counter()
                pipeline.run([flag], ir.Module.parse(asms[k]).operation)
                took.append(time.perf_counter() - start)
            rows.append(f"  {flag:<40} {took[0]:.3f} s -> {took[1]:.3f} s "
                        f"({took[1] / took[0]:.1f}x)")
    return rows


def memory_per_100k_lines() -> list[str]:
    """Peak RSS of `harp analyze` (a fresh process) on about 100,000 lines: one program of
    100 files of 966 lines (a directory is one program, kept whole in memory), and one file
    of 30,000 lines (libcst's tree of a file is the largest single cost)."""
    import tempfile

    wrapper = ("import resource, subprocess, sys\n"
               "subprocess.run(sys.argv[1:], capture_output=True)\n"
               "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")
    rows = ["peak memory of harp analyze -j 1 (a fresh process):"]
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch) / "program"
        folder.mkdir()
        for i in range(100):
            (folder / f"train{i}.py").write_text(training_program(40))
        big = Path(scratch) / "big.py"
        big.write_text(training_program(1280))
        for what, target in (("100 files", folder), ("one file", big)):
            lines = count_lines(python_files([str(target)])[0])
            start = time.perf_counter()
            done = subprocess.run([sys.executable, "-c", wrapper, sys.executable, "-m",
                                   "harp_ir.cli.harp", "analyze", "-j", "1", "--no-config",
                                   "--no-cache", str(target)], capture_output=True, text=True)
            elapsed = time.perf_counter() - start
            peak_mb = int(done.stdout) / 1024
            rows.append(f"  {what}, {lines:,} lines: {elapsed:.1f} s, peak {peak_mb:,.0f} MB "
                        f"= {peak_mb / lines * 100_000:,.0f} MB per 100k lines")
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
    print("\n".join(harp_opt_growth()), flush=True)
    print("\n".join(memory_per_100k_lines()), flush=True)
    if not args.no_profile:
        print("\n".join(profile(Path(args.profile_dir))))


if __name__ == "__main__":
    main()
