"""Frontend throughput: lines per second and peak memory of `harp import` + verify.

    python bench/frontend_throughput.py [CORPUS_DIR] [--limit N]

CORPUS_DIR defaults to the installed torch package. Also reports how time grows with the
input: one sample file concatenated 1x, 2x, 4x and 8x.
"""

from __future__ import annotations

import argparse
import resource
import time
from pathlib import Path

import harp_ir  # noqa: F401  (MLIR before TensorFlow)
from harp_ir.context import make_context
from harp_ir.frontend.lower import lower_source
from harp_ir.frontend.source import FrontendError


def main() -> None:
    import torch

    p = argparse.ArgumentParser()
    p.add_argument("corpus", nargs="?", default=str(Path(torch.__file__).parent / "nn"))
    p.add_argument("--limit", type=int, default=0)
    args = p.parse_args()
    files = sorted(Path(args.corpus).rglob("*.py"))
    if args.limit:
        files = files[: args.limit]
    lines = crashes = bad = 0
    start = time.perf_counter()
    with make_context():
        for f in files:
            source = f.read_text(encoding="utf-8", errors="replace")
            try:
                if not lower_source(source, str(f)).operation.verify():
                    bad += 1
            except FrontendError:
                continue
            except Exception as e:  # a crash is what this benchmark exists to find
                crashes += 1
                print(f"CRASH {f}: {type(e).__name__}: {e}")
            lines += source.count("\n")
        elapsed = time.perf_counter() - start
        peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"{len(files)} files, {lines} lines in {elapsed:.1f}s: {lines / elapsed:,.0f} "
              f"lines/s; peak RSS {peak_mb:.0f} MB; crashes {crashes}; verify failures {bad}")
        sample = max(files[:50], key=lambda f: f.stat().st_size).read_text(encoding="utf-8")
        for k in (1, 2, 4, 8):
            t = time.perf_counter()
            lower_source(sample * k, "sample.py")
            print(f"  {k}x sample ({sample.count(chr(10)) * k} lines): "
                  f"{time.perf_counter() - t:.2f}s")


if __name__ == "__main__":
    main()
