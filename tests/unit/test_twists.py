"""Twist programs (tests/twists): each holds a pattern harp fixes plus one realistic twist
that a naive fix gets wrong. Every safe fix harp makes on them is run against the original
and must behave the same; each `# expect:` line says what harp must do with a hint:
`fixed`, `declined "<reason>"` or `unsafe "<condition>"` (only with --unsafe-fixes). A
`# level: aggressive` line runs harp at that level (a fix of a hint shown only there)."""

import re
import sys
from pathlib import Path

import pytest

from harp_ir.feedback import Feedback
from harp_ir.refactor import refactor_source
from harp_ir.verify import difference, run_command

TWISTS = Path(__file__).resolve().parents[1] / "twists"
NAMES = sorted(p.name for p in TWISTS.glob("*.py"))
EXPECT = re.compile(r'^# expect: (HARP\d{3}) (fixed|declined|unsafe)(?: "(.*)")?$', re.M)
LEVEL = re.compile(r"^# level: (conservative|default|aggressive)$", re.M)


def test_every_twist_says_what_it_is():
    for name in NAMES:
        text = (TWISTS / name).read_text()
        assert text.startswith("# twist: "), name


@pytest.mark.parametrize("name", NAMES)
def test_twist(ctx, name, tmp_path):
    source = (TWISTS / name).read_text()
    level = LEVEL.search(source)
    outcome = refactor_source(source, Path(name), Feedback(level[1] if level else "default"))
    applied = {h.id for h, _ in outcome.applied}
    declined = {}
    for h, reason in outcome.declined:
        declined.setdefault(h.id, []).append(reason)
    expected = EXPECT.findall(source)
    seen = applied | set(declined)
    assert seen <= {hint for hint, _, _ in expected}, \
        f"hints the twist does not expect: {sorted(seen)} ({outcome.declined})"
    for hint, what, reason in expected:
        if what == "fixed":
            assert hint in applied, (hint, declined.get(hint))
            continue
        reasons = declined.get(hint, [])
        assert any(reason in r for r in reasons), (hint, reason, reasons)
        if what == "unsafe":
            assert all("--unsafe-fixes" in r for r in reasons if reason in r)
    if outcome.applied:  # a safe fix: the program must behave the same
        fixed = tmp_path / name
        fixed.write_text(outcome.source)
        command = f"{sys.executable} {{}}"
        before = run_command(command.format(TWISTS / name), tmp_path, 300)
        after = run_command(command.format(fixed), tmp_path, 300)
        assert before.status == 0, before.stderr[-2000:]
        assert not difference(before, after, 1e-5, 1e-8), (
            difference(before, after, 1e-5, 1e-8), outcome.diff())
