"""The blind re-grade of the corpus: every current hint's verdict and every problem list,
re-read by readers who saw only the code, the rubric and each hint's place and category.

    python bench/ecosystem.py --blind-packets DIR      # the packets (NAME.packet.md) and
                                                       # their numbered hints (NAME.hints.json)
    (blind readers write DIR/NAME.verdicts.toml and DIR/NAME.problems.toml)
    python bench/regrade.py DIR                        # apply: verdicts.toml takes the blind
                                                       # verdicts and problem lists; the change
                                                       # is kept in ecosystem/regrade.toml
"""

from __future__ import annotations

import json
import sys
import tomllib
from collections import Counter
from pathlib import Path

import ecosystem
from first_contact import _toml_str

HERE = Path(__file__).resolve().parent
REGRADE = HERE / "ecosystem" / "regrade.toml"


def regrade(folder: Path, verdicts_path: Path = ecosystem.VERDICTS,
            out: Path = REGRADE) -> dict:
    data = tomllib.loads(verdicts_path.read_text(encoding="utf-8"))
    verdicts, problems, reads = data["verdict"], data.get("problem", []), data.get("read", [])
    index = {ecosystem.key(v["source"], v["where"], v["id"]): v for v in verdicts}
    changed_hints, problem_sources = [], set()
    new_problems: list[dict] = []
    hints_of: dict[str, list[dict]] = {}
    for listing in sorted(folder.glob("*.hints.json")):
        name = listing.name.removesuffix(".hints.json")
        hints = hints_of[name] = json.loads(listing.read_text(encoding="utf-8"))
        blind = {int(v["hint"]): v for v in tomllib.loads(
            (folder / f"{name}.verdicts.toml").read_text(encoding="utf-8"))["verdict"]}
        if sorted(blind) != list(range(1, len(hints) + 1)):
            raise SystemExit(f"{folder}/{name}.verdicts.toml: not one verdict per hint")
        for n, h in enumerate(hints, 1):
            old = index.get(ecosystem.key(name, h["where"], h["id"]))
            before = old["verdict"] if old else "(none)"
            new = {"source": name, "where": h["where"], "id": h["id"],
                   "verdict": blind[n]["verdict"], "reason": blind[n]["reason"].strip()}
            changed_hints.append(dict(new, before=before, after=new["verdict"]))
            if old is None:
                verdicts.append(new)
            else:
                old.update(new)
        listed = folder / f"{name}.problems.toml"
        if listed.exists():
            problem_sources.add(name)
            got = tomllib.loads(listed.read_text(encoding="utf-8"))
            for p in got.get("problem", []):
                kind = p.get("id") or p["kind"]
                new_problems.append({"source": name, "where": p["where"],
                                     **({"id": kind} if kind.startswith("HARP") else
                                        {"kind": kind})})
    old_problems = [p for p in problems if p["source"] in problem_sources]

    def ident(p):
        return p["source"], p["where"], p.get("id") or p.get("kind")
    kept = {ident(p) for p in old_problems} & {ident(p) for p in new_problems}

    def found(ps):
        return sum(any(ecosystem.covers(h, p) for h in hints_of.get(p["source"], ()))
                   for p in ps)
    summary = {"before_problems": len(old_problems), "after_problems": len(new_problems),
               "kept": len(kept), "dropped": len(old_problems) - len(kept),
               "added": len(new_problems) - len(kept),
               "before_found": found(old_problems), "after_found": found(new_problems)}
    problems = [p for p in problems if p["source"] not in problem_sources] + new_problems
    _write_verdicts(verdicts_path, data, verdicts, problems, reads)
    _write_regrade(out, changed_hints, summary, sorted(problem_sources))
    return {"hints": Counter((h["before"], h["after"]) for h in changed_hints),
            "problems": summary}


def _write_verdicts(path: Path, data: dict, verdicts, problems, reads) -> None:
    """verdicts.toml rewritten from its data: the header comment kept, then the tables."""
    text = path.read_text(encoding="utf-8")
    header = text[: text.index("\n[[")] + "\n"
    out = [header]
    for v in verdicts:
        out += ["[[verdict]]"] + [f"{k} = {_toml_str(v[k])}"
                                  for k in ("source", "where", "id", "verdict", "reason")] + [""]
    for r in reads:
        out += ["[[read]]", f"source = {_toml_str(r['source'])}",
                "files = [" + ", ".join(_toml_str(f) for f in r["files"]) + "]", ""]
    for p in problems:
        field = "id" if "id" in p else "kind"
        out += ["[[problem]]", f"source = {_toml_str(p['source'])}",
                f"where = {_toml_str(p['where'])}", f"{field} = {_toml_str(p[field])}", ""]
    path.write_text("\n".join(out), encoding="utf-8")
    tomllib.loads(path.read_text(encoding="utf-8"))


def _write_regrade(path: Path, hints: list[dict], summary: dict, sources: list[str]) -> None:
    out = ["# The blind re-grade of the corpus (bench/regrade.py): each current hint's verdict",
           "# before (by the people who tuned the analyses) and after (a blind reader given",
           "# the code, bench/ecosystem/RUBRIC.md and the hint's place and category), and the",
           "# problem lists re-read blind for the sources named.", "",
           "[problems]"] + [f"{k} = {v}" for k, v in summary.items()]
    out.append("sources = [" + ", ".join(_toml_str(s) for s in sources) + "]")
    for h in hints:
        out += ["", "[[hint]]"] + [f"{k} = {_toml_str(h[k])}" for k in
                                   ("source", "where", "id", "before", "after", "reason")]
    path.write_text("\n".join(out) + "\n", encoding="utf-8")


if __name__ == "__main__":
    result = regrade(Path(sys.argv[1]))
    for (a, b), n in sorted(result["hints"].items()):
        print(f"{a:>10} -> {b:<10} {n}")
    print(result["problems"])
