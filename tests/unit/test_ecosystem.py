"""The ecosystem check's scoring: precision from verdicts, recall from the problem list, new
and lost hints. (The corpus itself runs with `python bench/ecosystem.py`.)"""

import sys
import tomllib
from pathlib import Path

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
