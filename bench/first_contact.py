"""First contact: a source measured when it joins the corpus, before any change for it.

    python bench/ecosystem.py --first-contact NAME                  # stage 1
    python bench/ecosystem.py --first-contact NAME --reviews FILE   # stage 2

Stage 1 runs harp on the new source (as the ecosystem check does) and keeps what it
reported, with the commit of harp's analysis code, in `bench/ecosystem/first_contact/NAME.json`;
it also writes the blind reader's packet, `NAME.packet.md`: the rubric's place, the hints as
place and category only (never harp's message, reason or fix), so the reader judges the code,
not harp's argument.

Stage 2 takes the reader's review (a TOML file with `[[verdict]]` per hint number of the
packet, `[[problem]]` per problem found by reading files in full, and `read`), checks that
every hint is judged, matches problems to hints, and appends one entry to
`bench/ecosystem/first_contact.toml`, which is written once per source and never edited. The
verdicts and problems also join `verdicts.toml`, so the source is part of the corpus from then
on. The pooled figures over every entry are the README's headline (`pooled`).
"""

from __future__ import annotations

import datetime
import json
import subprocess
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent
RECORD = HERE / "ecosystem" / "first_contact.toml"
STAGING = HERE / "ecosystem" / "first_contact"
RUBRIC = HERE / "ecosystem" / "RUBRIC.md"
ANALYSIS_TREES = ("harp_ir", "passes", "dialects")
VERDICT_VALUES = ("TRUE", "FALSE", "DEBATABLE")


def load_record(path: Path = RECORD) -> list[dict]:
    if not path.exists():
        return []
    return tomllib.loads(path.read_text(encoding="utf-8")).get("source", [])


def analysis_commit(repo: Path = HERE.parent) -> tuple[str, bool]:
    """The last commit that changed harp's analysis code, and whether that code has
    uncommitted changes now (a first contact on a dirty tree is not reproducible)."""
    git = ["git", "-C", str(repo)]
    commit = subprocess.run(git + ["log", "-1", "--format=%H", "--", *ANALYSIS_TREES],
                            capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(git + ["status", "--porcelain", "--", *ANALYSIS_TREES],
                           capture_output=True, text=True).stdout.strip()
    return commit, bool(dirty)


def hint_categories() -> dict[str, str]:
    """Each hint id's category as the rubric names it: its name and what it finds (the
    catalogue's words, the same for every hint of that id)."""
    from harp_ir.hints import HINTS

    return {s.id: f"{s.name}: {s.finds}" for s in HINTS}


def stage(source, hints: list[dict], where, staging: Path = STAGING,
          files: int | None = None) -> tuple[Path, Path]:
    """Keep stage 1's result and write the blind packet; returns their paths."""
    if any(e["name"] == source.name for e in load_record()):
        raise SystemExit(f"first contact: {source.name} is already recorded in {RECORD}; "
                         "an entry is written once")
    commit, dirty = analysis_commit()
    if dirty:
        raise SystemExit("first contact: harp's analysis code has uncommitted changes; "
                         "commit first so the entry names the code that made its hints")
    staging.mkdir(parents=True, exist_ok=True)
    listed = numbered(hints, where)
    kept = staging / f"{source.name}.json"
    kept.write_text(json.dumps({
        "name": source.name, "origin": source.origin, "harp_commit": commit,
        "date": datetime.date.today().isoformat(), "files": files, "hints": listed},
        indent=1) + "\n",
        encoding="utf-8")
    packet = write_packet(source.name, source.origin, listed, staging)
    return kept, packet


def numbered(hints: list[dict], where) -> list[dict]:
    """The hints in the packet's order (file, cell, line, column, id), each with its place."""
    return sorted((dict(h, where=where(h)) for h in hints),
                  key=lambda h: (h["span"]["file"], h["span"].get("cell") or 0,
                                 h["span"]["line"], h["span"]["col"], h["id"]))


def write_packet(name: str, origin: str, listed: list[dict], folder: Path) -> Path:
    """The blind reader's packet: each hint's number, place and category, nothing more."""
    categories = hint_categories()
    lines = [f"# Blind review packet: {name} ({origin})", "",
             f"Judge each place below against the rubric ({RUBRIC.name}) by reading the code.",
             "Each place is a file, line and column relative to the source's root, and the",
             "category of problem claimed there. Nothing else is given on purpose.", ""]
    for n, h in enumerate(listed, 1):
        lines.append(f"{n}. `{h['where']}`: {h['id']} {categories.get(h['id'], '')}")
    packet = folder / f"{name}.packet.md"
    packet.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return packet


def _toml_str(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)  # a JSON string is a valid TOML basic string


def covers(hint: dict, problem: dict) -> bool:
    from ecosystem import covers as shared  # one rule for the check and for first contact

    return shared(hint, problem)


def record(name: str, reviews: Path, staging: Path = STAGING, path: Path = RECORD,
           verdicts_path: Path | None = None) -> dict:
    """Stage 2: join stage 1's hints with the blind review; append the entry (once)."""
    if any(e["name"] == name for e in load_record(path)):
        raise SystemExit(f"first contact: {name} is already recorded in {path}")
    kept = json.loads((staging / f"{name}.json").read_text(encoding="utf-8"))
    review = tomllib.loads(reviews.read_text(encoding="utf-8"))
    hints = kept["hints"]
    by_number = {}
    for v in review.get("verdict", []):
        if v["verdict"] not in VERDICT_VALUES or not v.get("reason", "").strip():
            raise SystemExit(f"{reviews}: hint {v.get('hint')}: a verdict is one of "
                             f"{', '.join(VERDICT_VALUES)} with a reason")
        by_number[int(v["hint"])] = v
    missing = [n for n in range(1, len(hints) + 1) if n not in by_number]
    if missing:
        raise SystemExit(f"{reviews}: no verdict for hint(s) {missing}")
    read = review.get("read", [])
    needed = min(3, kept.get("files") or 3)  # a source of two files is read whole
    if len(read) < needed:
        raise SystemExit(f"{reviews}: the protocol asks for at least {needed} files read in "
                         f"full")
    problems = review.get("problem", [])
    entry = {"name": name, "origin": kept["origin"], "harp_commit": kept["harp_commit"],
             "date": kept["date"], "reader": review.get("reader", "blind helper session"),
             "hints": [], "read": read, "problems": []}
    for n, h in enumerate(hints, 1):
        v = by_number[n]
        entry["hints"].append({"where": h["where"], "id": h["id"], "verdict": v["verdict"],
                               "reason": v["reason"].strip()})
    for p in problems:
        kind = p.get("id") or p["kind"]
        entry["problems"].append({"where": p["where"], "kind": kind,
                                  "what": p.get("what", "").strip(),
                                  "found": any(covers(h, {"where": p["where"], "id": kind})
                                               for h in hints)})
    entry["figures"] = figures([entry])
    _append_entry(path, entry)
    if verdicts_path is not None:
        _append_to_corpus(verdicts_path, entry)
    return entry


def figures(entries: list[dict]) -> dict:
    """Precision (TRUE over judged hints) and recall (problems a hint found) over entries."""
    hints = [h for e in entries for h in e.get("hints", [])]  # TOML has no empty
    problems = [p for e in entries for p in e.get("problems", [])]  # array of tables
    true = sum(h["verdict"] == "TRUE" for h in hints)
    debatable = sum(h["verdict"] == "DEBATABLE" for h in hints)
    found = sum(p["found"] for p in problems)
    return {"hints": len(hints), "TRUE": true, "DEBATABLE": debatable,
            "FALSE": len(hints) - true - debatable,
            "precision": round(true / len(hints), 3) if hints else None,
            "problems": len(problems), "found": found,
            "recall": round(found / len(problems), 3) if problems else None}


def pooled(path: Path = RECORD) -> dict:
    entries = load_record(path)
    return dict(figures(entries), sources=len(entries))


def _append_entry(path: Path, e: dict) -> None:
    f = e["figures"]
    out = ["", "[[source]]", f"name = {_toml_str(e['name'])}",
           f"origin = {_toml_str(e['origin'])}", f"harp_commit = {_toml_str(e['harp_commit'])}",
           f"date = {_toml_str(e['date'])}", f"reader = {_toml_str(e['reader'])}",
           "read = [" + ", ".join(_toml_str(r) for r in e["read"]) + "]",
           "figures = {" + ", ".join(f"{k} = {_toml_value(v)}" for k, v in f.items()) + "}"]
    for h in e["hints"]:
        out += ["", "[[source.hints]]"] + [f"{k} = {_toml_str(h[k])}"
                                           for k in ("where", "id", "verdict", "reason")]
    for p in e["problems"]:
        out += ["", "[[source.problems]]"] + [f"{k} = {_toml_str(p[k])}"
                                              for k in ("where", "kind", "what")]
        out.append(f"found = {'true' if p['found'] else 'false'}")
    if not path.exists():
        path.write_text(HEADER, encoding="utf-8")
    with path.open("a", encoding="utf-8") as f_:
        f_.write("\n".join(out) + "\n")
    tomllib.loads(path.read_text(encoding="utf-8"))  # still valid TOML


def _toml_value(v) -> str:
    if v is None:
        return '"-"'
    return str(v).lower() if isinstance(v, bool) else str(v)


def _append_to_corpus(path: Path, e: dict) -> None:
    """The verdicts and problems join the corpus's review file (verdicts.toml's layout)."""
    out = ["", f"# ---- {e['name']}: first contact {e['date']} (blind reader)", "",
           "[[read]]", f"source = {_toml_str(e['name'])}",
           "files = [" + ", ".join(_toml_str(r) for r in e["read"]) + "]"]
    for h in e["hints"]:
        out += ["", "[[verdict]]", f"source = {_toml_str(e['name'])}"] + [
            f"{k} = {_toml_str(h[k])}" for k in ("where", "id", "verdict", "reason")]
    for p in e["problems"]:
        field = "id" if p["kind"].startswith("HARP") else "kind"
        out += ["", "[[problem]]", f"source = {_toml_str(e['name'])}",
                f"where = {_toml_str(p['where'])}", f"{field} = {_toml_str(p['kind'])}"]
    with path.open("a", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")
    tomllib.loads(path.read_text(encoding="utf-8"))


HEADER = """\
# First contact: each source as harp first saw it, before any change for it, written once by
# `python bench/ecosystem.py --first-contact NAME --reviews FILE` and never edited.
# harp_commit: the last commit of harp's analysis code (harp_ir/, passes/, dialects/).
# hints: every default-level hint, judged by a blind reader (a fresh session given only the
#   source's code, bench/ecosystem/RUBRIC.md and each hint's place and category).
# problems: what the reader found reading the `read` files in full, before any hint was
#   shown; found = a hint of that kind at that line.
# figures: precision = TRUE / judged hints; recall = found / problems.
"""
