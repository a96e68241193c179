"""Rule agreement: every registry (passes, hints, fixes, SARIF rules, `--list-*`, the
README) is derived from the rule modules in `passes/`, and each rule's declared facts (its
flag, its fix, the assumptions it may rest on) hold for what it really does. A new hint is
one rule module listed in `MODULES`, with lit files and, for a fix, codemod fixtures."""

import collections
import functools
import re
from pathlib import Path

import pytest

from harp_ir import hints, sarif
from harp_ir.analysis import ASSUMPTIONS
from harp_ir.cli import harp, harp_opt
from harp_ir.codemods import fix_for
from harp_ir.context import make_context
from harp_ir.frontend.lower import lower_source
from harp_ir.passes import (
    MODULES,
    analysis_pipeline,
    flag_of,
    hint_rules,
    module_name,
    passes,
    rule_for,
    rules,
)
from harp_ir.report import analyze_module

ROOT = Path(__file__).resolve().parents[2]
LIT_HINTS = ROOT / "tests" / "lit" / "hints"
FIXTURES = ROOT / "tests" / "codemods"
#: an assumption the frontend adds to every hint of a TF1 module, whatever the rule
FRONTEND_ASSUMPTIONS = {"tf1-api"}


def test_every_rule_module_is_registered_under_its_flag():
    on_disk = {p.stem for p in (ROOT / "passes").glob("*.py") if p.stem != "__init__"}
    assert on_disk == set(MODULES)
    for module, (flag, rule) in zip(MODULES, rules().items(), strict=True):
        assert rule.flag == flag == flag_of(module)
        assert module_name(flag) == f"harp_ir.passes.{module}"
        assert rule.run.__module__ == module_name(flag), "a rule runs its own pass"
        assert rule.summary


def test_hint_specs_are_complete_and_unique():
    specs = [r.hint for r in hint_rules()]
    assert len({s.id for s in specs}) == len(specs)
    assert len({s.name for s in specs}) == len(specs)
    for s in specs:
        assert re.fullmatch(r"HARP[1-5]\d\d", s.id), s.id
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", s.name), s.name
        assert s.finds and s.why and s.refactoring, s.id
        assert s.before and s.after and s.before != s.after, f"{s.id} needs an example"
        assert s.assumptions and set(s.assumptions) <= set(ASSUMPTIONS), s.id


def test_registries_are_derived_from_the_rules():
    specs = tuple(r.hint for r in hint_rules())
    assert hints.HINTS == specs
    assert set(hints.BY_ID) == {s.id for s in specs}
    assert list(passes()) == list(rules())
    assert analysis_pipeline() == tuple(r.flag for r in hint_rules())
    sarif_rules = sarif.report([], [])["runs"][0]["tool"]["driver"]["rules"]
    assert [r["id"] for r in sarif_rules] == [s.id for s in specs]
    for r in hint_rules():
        assert rule_for(r.hint.id) is r
        assert fix_for(r.hint.id) is r.fix
        assert hints.fix_summary(r.hint.id) == (r.fix.summary if r.fix else "none")


def test_command_line_listings_name_every_rule(capsys):
    assert harp.main(["--list-hints"]) == 0
    listed = capsys.readouterr().out
    assert harp_opt.main(["--list-passes"]) == 0
    flags = capsys.readouterr().out
    for r in rules().values():
        assert f"--{r.flag} " in flags
        if r.hint:
            assert re.search(rf"^{r.hint.id}\s+{r.hint.name}\s", listed, re.M)


def test_explain_shows_what_why_example_fix_and_assumptions(capsys):
    for r in hint_rules():
        assert harp.main(["explain", r.hint.id.lower()]) == 0
        text = capsys.readouterr().out
        for part in ("What:", "Why:", "Example, before:", "Fix:", f"--{r.flag}"):
            assert part in text, (r.hint.id, part)
        assert all(kind in text for kind in r.hint.assumptions)
        assert ("It declines when:" in text) == (r.fix is not None)


def test_every_fix_documents_its_rewrite_and_its_declines():
    for r in hint_rules():
        if r.fix:
            assert r.fix.rewrite and r.fix.declines and r.fix.summary != "none", r.hint.id
            assert r.fix.apply.__module__.startswith(("harp_ir.passes.", "harp_ir.codemods"))


def test_every_hint_has_lit_positives():
    markers = collections.Counter()
    for path in LIT_HINTS.glob("*.py"):
        for m in re.finditer(r"#\s*expected-hint(?:@\w+)?\s+((?:HARP\d{3}[\s,]*)+)",
                             path.read_text()):
            markers.update(re.findall(r"HARP\d{3}", m.group(1)))
    missing = {r.hint.id: markers[r.hint.id] for r in hint_rules() if markers[r.hint.id] < 3}
    assert not missing, f"hints with fewer than 3 lit positives: {missing}"


@functools.cache
def _hints_of(path: Path) -> tuple:
    with make_context():
        return tuple(analyze_module(lower_source(path.read_text(), str(path))))


def test_every_fix_has_fixtures_that_exercise_it():
    """At least three fixture pairs hold the hint a fix rewrites."""
    found = collections.Counter()
    for path in sorted(FIXTURES.rglob("*.in.py")):  # aggressive/: fixes of such hints
        found.update({h.id for h in _hints_of(path)})
    short = {r.hint.id: found[r.hint.id] for r in hint_rules()
             if r.fix and found[r.hint.id] < 3}
    assert not short, f"fixes with fewer than 3 fixture pairs: {short}"


@pytest.mark.parametrize("folder", ["tests/lit/hints", "tests/codemods", "tests/twists"])
def test_hints_rest_only_on_the_assumptions_their_rule_declares(folder):
    checked = 0
    for path in sorted((ROOT / folder).glob("*.py")):
        if path.name.endswith(".out.py"):
            continue
        for h in _hints_of(path):
            declared = set(rule_for(h.id).hint.assumptions) | FRONTEND_ASSUMPTIONS
            undeclared = {a.kind for a in h.assumptions} - declared
            assert not undeclared, f"{path.name}: {h.id} rests on {undeclared}"
            checked += 1
    assert checked > 10
