"""The `expected-hint` test harness.

A `# expected-hint HARP201` comment on a source line means exactly that hint must be
reported on that line (several ids may follow one marker); every hint reported on a line
without the marker is a failure too. `# expected-hint@aggressive HARP205` expects the hint
only when the file is checked with `--level aggressive` (and none at the default level).

    python -m harp_ir.expected_hints [--level LEVEL] FILE.py...

Hints are filtered as `harp analyze` filters them (default level, inline ignores).
"""

from __future__ import annotations

import re
import sys
from collections import Counter

from harp_ir.context import make_context
from harp_ir.feedback import LEVELS, Feedback, filter_hints
from harp_ir.report import analyze_file

_MARKER = re.compile(r"#\s*expected-hint(?:@(\w+))?\s+((?:HARP\d{3}[\s,]*)+)")


def expected(source: str, level: str = "default") -> Counter:
    """The hints the markers expect at `level`: a plain marker from the default level on,
    `expected-hint@aggressive` only at that level (a hint that rests on a high-risk
    speculation)."""
    rank = list(LEVELS).index
    found: Counter = Counter()
    for lineno, line in enumerate(source.splitlines(), start=1):
        m = _MARKER.search(line)
        if m and rank(m.group(1) or "default") <= rank(level):
            for hint_id in re.findall(r"HARP\d{3}", m.group(2)):
                found[(lineno, hint_id)] += 1
    return found


def check(path: str, level: str = "default") -> list[str]:
    """Mismatches between the markers in `path` and the hints harp reports for it."""
    with open(path, encoding="utf-8") as f:
        want = expected(f.read(), level)
    with make_context():
        found = filter_hints(analyze_file(path), Feedback(level))
    got = Counter((h.span.line, h.id) for h in found)
    problems = []
    for (line, hint_id), n in sorted((want - got).items()):
        problems.append(f"{path}:{line}: expected {hint_id} was not reported" +
                        (f" ({n} missing)" if n > 1 else ""))
    for (line, hint_id), n in sorted((got - want).items()):
        problems.append(f"{path}:{line}: unexpected {hint_id}" +
                        (f" ({n} extra)" if n > 1 else ""))
    return problems


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    level = "default"
    if args[:1] == ["--level"]:
        level, args = args[1], args[2:]
    paths = args
    problems = [p for path in paths for p in check(path, level)]
    for p in problems:
        print(p)
    if not problems:
        print(f"expected hints match in {len(paths)} file(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
