"""The ecosystem check's scoring: precision from verdicts, recall from the problem list, new
and lost hints. (The corpus itself runs with `python bench/ecosystem.py`.)"""

import sys
import tomllib
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))

import ecosystem  # noqa: E402


def hint(file, line, hint_id, cell=None):
    return {"id": hint_id, "message": "m",
            "span": {"file": file, "line": line, "col": 5, "cell": cell}}


def outcome(name, hints):
    source = ecosystem.Source(name, "repo", "torch", ["."], [], {})
    source.root = Path(".")
    return ecosystem.Outcome(source, hints)


def test_score_counts_verdicts_new_lost_and_recall():
    verdicts = {
        ("a", "x.py:3:5", "HARP201"): {"verdict": "TRUE", "source": "a", "where": "x.py:3:5",
                                     "id": "HARP201"},
        ("a", "x.py:9:5", "HARP201"): {"verdict": "FALSE", "source": "a", "where": "x.py:9:5",
                                     "id": "HARP201"},
        ("a", "nb.ipynb:cell 2:4:5", "HARP301"): {"verdict": "DEBATABLE", "source": "a",
                                                "where": "nb.ipynb:cell 2:4:5", "id": "HARP301"},
        ("a", "gone.py:1", "HARP202"): {"verdict": "TRUE", "source": "a", "where": "gone.py:1",
                                        "id": "HARP202"},
        ("b", "y.py:1", "HARP202"): {"verdict": "TRUE", "source": "b", "where": "y.py:1",
                                     "id": "HARP202"},  # b was not analysed: not lost
    }
    problems = [
        {"source": "a", "where": "x.py:3", "id": "HARP201"},
        {"source": "a", "where": "x.py:20", "id": "HARP201"},
        {"source": "a", "where": "z.py:5", "kind": "loss-accumulated-with-graph"},
        {"source": "b", "where": "y.py:1", "id": "HARP202"},  # not analysed: not counted
    ]
    result = ecosystem.score(
        [outcome("a", [hint("x.py", 3, "HARP201"), hint("x.py", 9, "HARP201"),
                       hint("nb.ipynb", 4, "HARP301", cell=2), hint("x.py", 12, "HARP501")])],
        verdicts, problems)
    assert result["per_id"]["HARP201"] == {"hints": 2, "TRUE": 1, "FALSE": 1, "DEBATABLE": 0,
                                           "new": 0, "precision": 0.5}
    assert result["per_id"]["HARP301"]["precision"] == 0.0  # DEBATABLE is judged, not TRUE
    assert result["overall"]["precision"] == round(1 / 3, 3)
    assert [(n["where"], n["id"]) for n in result["new"]] == [("x.py:12:5", "HARP501")]
    assert [(v["where"], v["id"]) for v in result["lost"]] == [("gone.py:1", "HARP202")]
    assert result["recall"]["problems"] == 3 and result["recall"]["flagged"] == 1
    assert result["recall"]["by_kind"]["loss-accumulated-with-graph"] == {"problems": 1}


def test_manifest_and_reviews_are_well_formed():
    sources = ecosystem.load_corpus()
    packages = [s for s in sources if s.kind == "package"]
    repos = [s for s in sources if s.kind == "repo"]
    assert len(packages) >= 5 and len(repos) >= 6
    assert all(len(s.spec["commit"]) == 40 for s in repos)
    assert len({s.name for s in sources}) == len(sources)
    verdicts, problems, read = ecosystem.load_reviews()
    names = {s.name for s in sources}
    assert all(v["reason"].strip() for v in verdicts.values())
    assert {k[0] for k in verdicts} <= names and {p["source"] for p in problems} <= names
    assert sum(len(files) for files in read.values()) >= 40
    raw = tomllib.loads(ecosystem.VERDICTS.read_text())
    assert len(raw["verdict"]) == len(verdicts)  # no hint judged twice


def test_a_problem_is_flagged_by_a_hint_of_its_id_spanning_its_line():
    h = {"id": "HARP201", "span": {"file": "a.py", "line": 10, "col": 1, "end_line": 12,
                                   "cell": None}}
    assert ecosystem.covers(h, {"where": "a.py:11", "id": "HARP201"})
    assert not ecosystem.covers(h, {"where": "a.py:13", "id": "HARP201"})
    assert not ecosystem.covers(h, {"where": "a.py:10", "id": "HARP202"})
    assert not ecosystem.covers(h, {"where": "b.py:10", "id": "HARP201"})
    assert ecosystem.covers(h, {"where": "a.py:10", "kind": "no-hint-covers-this"})
    nb = {"id": "HARP201", "span": {"file": "n.ipynb", "line": 3, "col": 1, "cell": 4}}
    assert ecosystem.covers(nb, {"where": "n.ipynb:cell 4:3", "id": "HARP201"})
    assert not ecosystem.covers(nb, {"where": "n.ipynb:cell 5:3", "id": "HARP201"})


def _stage(tmp_path, name="src"):
    import json

    staging = tmp_path / "staging"
    staging.mkdir()
    hints = [hint("x.py", 3, "HARP201"), hint("y.py", 7, "HARP205")]
    for h in hints:
        h["where"] = ecosystem.where(h)
    (staging / f"{name}.json").write_text(json.dumps(
        {"name": name, "origin": "o/r@abc", "harp_commit": "c" * 40, "date": "2026-01-01",
         "hints": hints}))
    return staging


def test_first_contact_is_recorded_once_with_blind_figures(tmp_path):
    import first_contact

    staging, record = _stage(tmp_path), tmp_path / "fc.toml"
    reviews = tmp_path / "review.toml"
    reviews.write_text('reader = "blind"\nread = ["x.py", "y.py", "z.py"]\n'
                       '[[problem]]\nwhere = "x.py:3"\nid = "HARP201"\nwhat = "sync"\n'
                       '[[problem]]\nwhere = "z.py:9"\nkind = "other"\nwhat = "o"\n'
                       '[[verdict]]\nhint = 1\nverdict = "TRUE"\nreason = "per step"\n'
                       '[[verdict]]\nhint = 2\nverdict = "FALSE"\nreason = "once"\n')
    entry = first_contact.record("src", reviews, staging, record)
    assert entry["figures"] == {"hints": 2, "TRUE": 1, "DEBATABLE": 0, "FALSE": 1,
                                "precision": 0.5, "problems": 2, "found": 1, "recall": 0.5}
    [kept] = first_contact.load_record(record)
    assert kept["harp_commit"] == "c" * 40 and kept["hints"][1]["verdict"] == "FALSE"
    assert first_contact.pooled(record)["sources"] == 1
    with pytest.raises(SystemExit, match="already recorded"):
        first_contact.record("src", reviews, staging, record)


def test_first_contact_refuses_a_review_that_skips_a_hint(tmp_path):
    import first_contact

    staging = _stage(tmp_path)
    reviews = tmp_path / "review.toml"
    reviews.write_text('read = ["a", "b", "c"]\n'
                       '[[verdict]]\nhint = 1\nverdict = "TRUE"\nreason = "r"\n')
    with pytest.raises(SystemExit, match=r"no verdict for hint\(s\) \[2\]"):
        first_contact.record("src", reviews, staging, tmp_path / "fc.toml")
    assert not (tmp_path / "fc.toml").exists()


def test_a_run_that_differs_from_the_recorded_one_drifts(tmp_path):
    import json

    recorded = {"sources": [{"name": "a", "files": 2, "lines": 10, "hints": 1, "errors": 0}],
                "per_source": {"a": {"hints": 1, "TRUE": 1}}}
    path = tmp_path / "results.json"
    path.write_text(json.dumps(recorded))
    same = {"sources": [dict(recorded["sources"][0], seconds=3.0)],
            "per_source": {"a": {"hints": 1, "TRUE": 1}}}
    assert ecosystem.recorded_drift(same, path) == []
    moved = {"sources": [dict(recorded["sources"][0], hints=2)],
             "per_source": {"a": {"hints": 2, "TRUE": 1, "new": 1}}}
    assert ecosystem.recorded_drift(moved, path) == ["a: hints 1 -> 2"]
