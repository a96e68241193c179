"""The README's figures on real code, generated, never typed: from the recorded run of the
ecosystem check (`bench/ecosystem/results.json`, written by `python bench/ecosystem.py
--record`), the first-contact entries (`first_contact.toml`) and the blind re-grade
(`regrade.toml`). `tests/unit/test_readme.py` checks that the README holds exactly these
blocks, and the check itself fails when a run no longer matches the recorded one.

    python bench/ecosystem_tables.py README.md    # rewrite the blocks from the records
"""

from __future__ import annotations

import json
import sys
import tomllib
from collections import Counter
from pathlib import Path

import first_contact

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "ecosystem" / "results.json"
REGRADE = HERE / "ecosystem" / "regrade.toml"
VERDICTS = ("TRUE", "FALSE", "DEBATABLE")


def _pct(x) -> str:
    return "-" if x is None or x == "-" else f"{x:.2f}"


def _ratio(a: int, b: int) -> str:
    return f"{a / b:.2f}" if b else "-"


def load_results(path: Path = RESULTS) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def headline(results: dict, entries: list[dict]) -> str:
    fc = first_contact.figures(entries)
    o, r = results["overall"], results["recall"]
    return (
        f"**First contact** (what a new user sees: {len(entries)} sources measured when they "
        f"joined, before any change for them, judged blind): precision "
        f"**{_pct(fc['precision'])}** ({fc['TRUE']} TRUE of {fc['hints']} hints), recall "
        f"**{_pct(fc['recall'])}** ({fc['found']} of {fc['problems']} problems). "
        f"**The whole corpus now** ({len(results['sources'])} sources, after tuning, "
        f"verdicts blind): precision {_pct(o['precision'])} ({o['TRUE']} TRUE of "
        f"{o['hints']} hints), recall {_pct(r['recall'])} ({r['flagged']} of "
        f"{r['problems']} problems).")


def sources_table(results: dict) -> str:
    rows = ["| source | origin | framework | files | lines | hints | TRUE | precision "
            "| problems found |", "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    per = results["per_source"]
    for s in results["sources"]:
        c = per.get(s["name"], {})
        judged = sum(c.get(v, 0) for v in VERDICTS)
        rows.append(f"| {s['name']} | {s['origin']} | {s['framework']} | {s['files']:,} | "
                    f"{s['lines']:,} | {s['hints']} | {c.get('TRUE', 0)} | "
                    f"{_ratio(c.get('TRUE', 0), judged)} | "
                    f"{c.get('flagged', 0)} of {c.get('problems', 0)} |")
    return "\n".join(rows)


def ids_table(results: dict) -> str:
    by_kind = results["recall"]["by_kind"]
    rows = ["| id | hints | TRUE | FALSE | DEBATABLE | precision | problems found |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    ids = sorted(set(results["per_id"]) | {k for k in by_kind if k.startswith("HARP")})
    for hint_id in ids:
        r = results["per_id"].get(hint_id, {})
        k = by_kind.get(hint_id, {})
        found = f"{k.get('flagged', 0)} of {k['problems']}" if k else "-"
        rows.append(f"| {hint_id} | {r.get('hints', 0)} | {r.get('TRUE', 0)} | "
                    f"{r.get('FALSE', 0)} | {r.get('DEBATABLE', 0)} | "
                    f"{_pct(r.get('precision'))} | {found} |")
    o, rc = results["overall"], results["recall"]
    rows.append(f"| **all** | **{o['hints']}** | **{o['TRUE']}** | **{o['FALSE']}** | "
                f"**{o['DEBATABLE']}** | **{_pct(o['precision'])}** | "
                f"**{rc['flagged']} of {rc['problems']}** |")
    others = {k: v for k, v in by_kind.items() if not k.startswith("HARP")}
    if others:
        rows.append("")
        rows.append("Problems of kinds no hint covers yet: " + ", ".join(
            f"{k} {v.get('flagged', 0)} of {v['problems']}" for k, v in sorted(others.items()))
            + ".")
    return "\n".join(rows)


def first_contact_table(entries: list[dict]) -> str:
    rows = ["| source | origin | harp commit | date | hints | TRUE | DEBATABLE | FALSE | "
            "precision | problems found | recall |",
            "| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for e in entries:
        f = first_contact.figures([e])
        rows.append(f"| {e['name']} | {e['origin']} | {e['harp_commit'][:8]} | {e['date']} | "
                    f"{f['hints']} | {f['TRUE']} | {f['DEBATABLE']} | {f['FALSE']} | "
                    f"{_pct(f['precision'])} | {f['found']} of {f['problems']} | "
                    f"{_pct(f['recall'])} |")
    f = first_contact.figures(entries)
    rows.append(f"| **pooled** | {len(entries)} sources | | | **{f['hints']}** | "
                f"**{f['TRUE']}** | **{f['DEBATABLE']}** | **{f['FALSE']}** | "
                f"**{_pct(f['precision'])}** | **{f['found']} of {f['problems']}** | "
                f"**{_pct(f['recall'])}** |")
    problems = [p for e in entries for p in e.get("problems", [])]
    kinds = Counter(p["kind"] for p in problems)
    found = Counter(p["kind"] for p in problems if p["found"])
    rows += ["", "Problems the blind readers found, by kind: " + ", ".join(
        f"{k} {found[k]} of {n}" for k, n in sorted(kinds.items())) + "."]
    return "\n".join(rows)


def regrade_table(path: Path = REGRADE) -> str:
    """Before and after the blind re-grade of the corpus's verdicts and problems."""
    if not path.exists():
        return "(no re-grade recorded)"
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    hints = data.get("hint", [])
    changes = Counter((h["before"], h["after"]) for h in hints if h["before"] != h["after"])
    before = Counter(h["before"] for h in hints)
    after = Counter(h["after"] for h in hints)
    p = data.get("problems", {})
    rows = ["| | hints | TRUE | FALSE | DEBATABLE | precision | problems | found | recall |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for label, c, key in (("before (verdicts by the people who tuned)", before, "before"),
                          ("after (blind re-grade)", after, "after")):
        rows.append(f"| {label} | {len(hints)} | {c['TRUE']} | {c['FALSE']} | "
                    f"{c['DEBATABLE']} | {_ratio(c['TRUE'], len(hints))} | "
                    f"{p.get(key + '_problems', 0)} | {p.get(key + '_found', 0)} | "
                    f"{_ratio(p.get(key + '_found', 0), p.get(key + '_problems', 0))} |")
    moved = ", ".join(f"{n} {a} → {b}" for (a, b), n in sorted(changes.items(),
                                                             key=lambda x: -x[1]))
    rows += ["", f"{sum(changes.values())} of {len(hints)} verdicts changed"
             + (f" ({moved})" if moved else "") + "."]
    if p:
        rows.append(f"Problems: {p.get('kept', 0)} of the {p.get('before_problems', 0)} kept "
                    f"by the blind readers, {p.get('dropped', 0)} dropped, "
                    f"{p.get('added', 0)} added.")
    return "\n".join(rows)


def blocks(results: dict | None = None, entries: list[dict] | None = None) -> dict[str, str]:
    results = load_results() if results is None else results
    entries = first_contact.load_record() if entries is None else entries
    return {"ecosystem-headline": headline(results, entries),
            "first-contact": first_contact_table(entries),
            "ecosystem-sources": sources_table(results),
            "ecosystem-ids": ids_table(results),
            "ecosystem-regrade": regrade_table()}


def marked(name: str, text: str) -> str:
    return (f"<!-- {name}:begin (generated by python bench/ecosystem_tables.py README.md) -->"
            f"\n{text}\n<!-- {name}:end -->")


def update_readme(path: Path) -> None:
    readme = path.read_text(encoding="utf-8")
    for name, text in blocks().items():
        begin, end = f"<!-- {name}:begin", f"<!-- {name}:end -->"
        if begin not in readme:
            raise SystemExit(f"{path}: no {begin} ... {end} block")
        head, rest = readme.split(begin, 1)
        readme = head + marked(name, text) + rest.split(end, 1)[1]
    path.write_text(readme, encoding="utf-8")


if __name__ == "__main__":
    update_readme(Path(sys.argv[1] if len(sys.argv) > 1 else HERE.parent / "README.md"))
