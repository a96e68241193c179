"""Does `harp analyze` promise what `harp refactor` does, on real code? (issue #27)

For every source of the ecosystem corpus (bench/ecosystem/corpus.toml) that is on this
machine, runs `harp analyze --output-format json` and `harp refactor --output-format json`
(a dry run: nothing is written) over the same paths, at the default level, and counts per
hint id: the hints analyze calls `fix: safe`, and the fixes refactor applies as safe. A
fix may take several hints with it (hoisting `(w @ v).sum()` hoists `w @ v`) or expose
another, so the counts are compared per file: a file where analyze promises a safe fix
and refactor applies none breaks the promise.

    python bench/one_truth.py [--only NAME ...] [--list]

`--list` prints each file's applied safe fixes (`APPLIED source: file: HARP201 x2`): the
programs `bench/verify_corpus.py` can run to check that the fixes work.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import ecosystem  # noqa: E402  (the corpus and where its sources are)


def _json(cmd: list[str], cwd: Path) -> dict | None:
    run = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=3600)
    try:
        return json.loads(run.stdout)
    except json.JSONDecodeError:
        return None


def compare(source) -> tuple[Counter, Counter, list[str], dict[str, Counter]]:
    """(safe fixes promised per id, safe fixes applied per id, files that break the
    promise, the safe fixes applied per file and id) for one source."""
    paths = [p for p in source.paths if (source.root / p).exists()]
    common = ["--output-format", "json", "--no-config"]
    for pattern in source.exclude:
        common += ["--exclude", pattern]
    harp = ecosystem.harp_command()
    analysed = _json(harp + ["analyze", "--no-cache", *common, *paths], source.root) or {}
    refactored = _json(harp + ["refactor", *common, *paths], source.root) or {}
    promised = Counter(h["id"] for h in analysed.get("hints", []) if h["fix"] == "safe")
    applied = Counter(a["id"] for f in refactored.get("files", []) for a in f["applied"]
                      if a["safety"] == "safe")
    by_file = {f["file"]: f["applied"] for f in refactored.get("files", [])}
    broken = sorted({h["span"]["file"] for h in analysed.get("hints", []) if h["fix"] == "safe"
                     and not any(a["safety"] == "safe" for a in by_file.get(h["span"]["file"],
                                                                              []))})
    per_file = {file: Counter(a["id"] for a in fixes if a["safety"] == "safe")
                for file, fixes in by_file.items()}
    return promised, applied, broken, {f: c for f, c in per_file.items() if c}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--only", nargs="*", default=None, help="only these sources")
    p.add_argument("--repos", type=Path, default=ecosystem.CACHE / "repos")
    p.add_argument("--mirrors", type=Path, default=ecosystem.MIRRORS)
    p.add_argument("--cache", type=Path, default=ecosystem.CACHE)
    p.add_argument("--list", action="store_true", help="print each file's applied safe fixes")
    args = p.parse_args(argv)
    promised_all, applied_all, broken_all = Counter(), Counter(), []
    for source in ecosystem.load_corpus():
        if args.only is not None and source.name not in args.only:
            continue
        if source.kind == "package":
            ecosystem.prepare_package(source, args.cache)
        else:
            ecosystem.prepare_repo(source, args.repos, args.mirrors)
        if source.skipped:
            print(f"skipped {source.name}: {source.skipped}")
            continue
        promised, applied, broken, per_file = compare(source)
        promised_all += promised
        applied_all += applied
        broken_all += [f"{source.name}: {f}" for f in broken]
        print(f"{source.name}: promised {sum(promised.values())}, applied "
              f"{sum(applied.values())}" + (f", broken in {len(broken)} file(s)" if broken
                                             else ""), flush=True)
        for file, fixes in sorted(per_file.items()) if args.list else ():
            print(f"APPLIED {source.name}: {file}: " +
                  ", ".join(f"{i} x{n}" if n > 1 else i for i, n in sorted(fixes.items())))
    print(f"\n{'id':<9}{'promised':>9}{'applied':>9}")
    for hint_id in sorted(promised_all | applied_all):
        print(f"{hint_id:<9}{promised_all[hint_id]:>9}{applied_all[hint_id]:>9}")
    print(f"{'all':<9}{sum(promised_all.values()):>9}{sum(applied_all.values()):>9}")
    for line in broken_all:
        print(f"BROKEN {line}")
    return 1 if broken_all else 0


if __name__ == "__main__":
    sys.exit(main())
