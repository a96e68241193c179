"""What drawing a batch of indices costs per step, by the way it is drawn (HARP505).

    python bench/sample_cost.py [--batch 32] [--runs 50]

For populations of 10^4, 10^5 and 10^6 items, times (median of `--runs`, after a
warm-up) the forms HARP505 reports and their replacements: `np.random.choice(n, k,
replace=False)` (legacy: a permutation of all n), `np.random.choice(range(n), k)` (the
range converted to an array first) against `np.random.choice(n, k)`, which draws the
same indices from the same state (checked before timing), and a Generator's
`choice(n, k, replace=False)`. These are the per-item costs HARP505's thresholds use.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np


def median_ms(draw, runs: int) -> float:
    draw()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        draw()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--batch", type=int, default=32)
    p.add_argument("--runs", type=int, default=50)
    args = p.parse_args(argv)
    k = args.batch
    rng = np.random.default_rng(0)
    print(f"numpy {np.__version__}, batch {k}; milliseconds per draw (median)")
    print(f"{'items':>9}  {'choice no-replace':>17}  {'choice(range)':>13}  "
          f"{'choice(n)':>9}  {'Generator':>9}")
    for n in (10_000, 100_000, 1_000_000):
        np.random.seed(0)
        over_range = np.random.choice(range(n), k)
        np.random.seed(0)
        assert (over_range == np.random.choice(n, k)).all(), "the range form draws the same"
        cells = [median_ms(lambda n=n: np.random.choice(n, k, replace=False), args.runs),
                 median_ms(lambda n=n: np.random.choice(range(n), k), args.runs),
                 median_ms(lambda n=n: np.random.choice(n, k), args.runs),
                 median_ms(lambda n=n: rng.choice(n, k, replace=False), args.runs)]
        print(f"{n:>9,}  {cells[0]:>17.3f}  {cells[1]:>13.3f}  {cells[2]:>9.4f}  "
              f"{cells[3]:>9.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
