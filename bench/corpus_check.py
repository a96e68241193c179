"""Robustness: `harp import` every .py file of the installed torch and tensorflow packages.

    python bench/corpus_check.py [PACKAGE...] [--jobs N] [--sample N] [--seed S]

Lowers and verifies each file, in worker processes, and reports files, lines, crashes
(exceptions from harp: these are bugs), verifier failures and syntax errors (files the
installed Python cannot parse either are counted, not failed). Exits 1 on any crash or
verifier failure.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

_CONTEXT = None


def package_files(name: str) -> list[Path]:
    spec = importlib.util.find_spec(name)  # no import: tensorflow must not load here
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit(f"corpus_check: package '{name}' is not installed")
    root = Path(list(spec.submodule_search_locations)[0])
    return sorted(root.rglob("*.py"))


def check(path: Path) -> tuple[str, int, str]:
    """(status, lines, detail) for one file; status is ok, crash, verify or syntax."""
    global _CONTEXT
    import harp_ir  # noqa: F401
    from harp_ir.context import make_context
    from harp_ir.frontend.lower import lower_source
    from harp_ir.frontend.source import FrontendError

    if _CONTEXT is None:
        _CONTEXT = make_context()
    source = path.read_text(encoding="utf-8", errors="replace")
    lines = source.count("\n")
    with _CONTEXT:
        try:
            module = lower_source(source, str(path))
        except FrontendError as e:
            return "syntax", lines, str(e)
        except Exception as e:  # noqa: BLE001  (a crash is what this script looks for)
            return "crash", lines, f"{type(e).__name__}: {e}"
        try:
            ok = module.operation.verify()
        except Exception as e:  # noqa: BLE001
            return "verify", lines, str(e).splitlines()[0]
        return ("ok" if ok else "verify"), lines, ""


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("packages", nargs="*", default=["torch", "tensorflow"])
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--sample", type=int, default=0, help="check N random files only")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    files = [f for name in args.packages for f in package_files(name)]
    if args.sample:
        files = sorted(random.Random(args.seed).sample(files, min(args.sample, len(files))))
    start = time.perf_counter()
    counts = {"ok": 0, "crash": 0, "verify": 0, "syntax": 0}
    lines = 0
    with ProcessPoolExecutor(args.jobs) as pool:
        for path, (status, n, detail) in zip(files, pool.map(check, files, chunksize=8),
                                             strict=True):
            counts[status] += 1
            lines += n
            if status in ("crash", "verify"):
                print(f"{status.upper()} {path}: {detail}")
    elapsed = time.perf_counter() - start
    print(f"{len(files)} files, {lines} lines, {elapsed:.0f}s with {args.jobs} jobs "
          f"({lines / elapsed:,.0f} lines/s): {counts['ok']} ok, {counts['crash']} crashes, "
          f"{counts['verify']} verifier failures, {counts['syntax']} syntax errors")
    return 1 if counts["crash"] or counts["verify"] else 0


if __name__ == "__main__":
    sys.exit(main())
