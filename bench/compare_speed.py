"""harp's own speed at two commits, run alternately on the same machine.

    python bench/compare_speed.py BASE_TREE [--head TREE] [--runs 2] [PATH ...]

BASE_TREE and the head are checkouts (a `git worktree add /tmp/base <commit>` for the
base; the head defaults to this checkout). Each run is `harp analyze --no-cache
--no-config -j 1` over PATHs (default: torch/nn, torch/optim and torch/distributed of the
installed torch) in a fresh process that imports harp from that tree alone: the editable
install maps `harp_ir.passes` and `harp_ir.dialects` to this checkout, so `PYTHONPATH`
alone would mix a worktree's `harp_ir` with this checkout's passes.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent

# imports harp from ROOT only, then runs `harp` with the remaining arguments
_LAUNCH = """
import importlib.util, runpy, sys
root = sys.argv.pop(1)
sys.meta_path = [f for f in sys.meta_path if "__editable__" not in getattr(f, "__module__", "")]
sys.path.insert(0, root)
import harp_ir
assert harp_ir.__file__.startswith(root), harp_ir.__file__
for name, sub in (("harp_ir.dialects", "dialects"), ("harp_ir.passes", "passes")):
    spec = importlib.util.spec_from_file_location(
        name, f"{root}/{sub}/__init__.py", submodule_search_locations=[f"{root}/{sub}"])
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
sys.argv[0] = "harp"
runpy.run_module("harp_ir.cli.harp", run_name="__main__")
"""


def timed_run(tree: Path, paths: list[str]) -> tuple[float, int]:
    """Seconds and exit status of one `harp analyze` of `paths` from `tree`."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", _LAUNCH, str(tree), "analyze", "--no-cache",
                           "--no-config", "-j", "1", *paths],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if "harp failed" in done.stderr or "Traceback" in done.stderr:
        raise SystemExit(f"{tree}: harp did not run as it should:\n{done.stderr[-2000:]}")
    return time.perf_counter() - start, done.returncode


def main(argv: list[str] | None = None) -> int:
    import torch

    default = [str(Path(torch.__file__).parent / p) for p in ("nn", "optim", "distributed")]
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", type=Path)
    parser.add_argument("--head", type=Path, default=HERE.parent)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("paths", nargs="*", default=default)
    args = parser.parse_intermixed_args(argv)
    times: dict[str, list[float]] = {"base": [], "head": []}
    for _ in range(args.runs):
        for which, tree in (("base", args.base), ("head", args.head)):
            seconds, _ = timed_run(tree.resolve(), args.paths or default)
            times[which].append(seconds)
            print(f"{which} {tree}: {seconds:.1f} s", flush=True)
    for which, runs in times.items():
        print(f"{which}: mean {sum(runs) / len(runs):.1f} s over {len(runs)} runs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
