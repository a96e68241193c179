"""Conditioned feedback: levels, confirmed and denied assumptions, inline ignores."""

import json
from pathlib import Path

import pytest

from harp_ir.analysis import Assumption, Span
from harp_ir.cli import harp
from harp_ir.feedback import ConfigError, Feedback, ignored_on_line, load_config
from harp_ir.report import Hint

SRC = """import torch
from torch import nn
model = nn.Linear(4, 1).to(torch.device("cuda" if torch.cuda.is_available() else "cpu"))
w = torch.randn(4, 4)
out = torch.empty(0, 4)
for step in range(w.shape[0] * 100):
    loss = model(torch.randn(2, 4)).sum()
    total = loss.item()
    out = torch.cat([out, w])
    y = torch.tensor([1.0, 2.0])
    v = w.sum().item()  # harp: ignore[HARP201]
"""


def hint(*assumptions):
    return Hint("HARP201", "host-sync-in-loop", Span("f.py", 1, 1, 1, 2), "m", "r", "none",
                list(assumptions))


SPEC_MEDIUM = Assumption("tensor", "loss", "medium", "speculated", "why")
PROVED = Assumption("tensor", "t", "low", "proved")
HIGH = Assumption("pure", "f", "high", "speculated")


@pytest.mark.parametrize("level,kept", [("conservative", 1), ("default", 2),
                                        ("aggressive", 3)])
def test_levels_admit_by_risk(level, kept):
    hints = [hint(PROVED), hint(PROVED, SPEC_MEDIUM), hint(HIGH)]
    assert len([h for h in hints if Feedback(level).admits(h)]) == kept


def test_denied_assumption_removes_exactly_the_hints_that_need_it():
    hints = [hint(SPEC_MEDIUM), hint(PROVED)]
    kept = [h for h in hints if Feedback(deny={"tensor:loss"}).admits(h)]
    assert kept == [hints[1]]
    assert [h for h in hints if Feedback(deny={"tensor"}).admits(h)] == []


def test_confirmed_assumption_no_longer_counts_against_the_level():
    fb = Feedback("conservative", assume={"pure:f"})
    judged = fb.admits(hint(HIGH))
    assert judged is not None and judged.assumptions[0].status == "confirmed"


def test_unknown_level_is_an_error():
    with pytest.raises(ConfigError):
        Feedback("reckless")


def test_inline_ignore():
    assert ignored_on_line("x.item()  # harp: ignore[HARP201]", "HARP201")
    assert ignored_on_line("x.item()  # harp: ignore", "HARP202")
    assert not ignored_on_line("x.item()  # harp: ignore[HARP202]", "HARP201")


def test_config_from_pyproject_and_harp_toml(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.harp]\nlevel = "aggressive"\n')
    sub = tmp_path / "src"
    sub.mkdir()
    assert load_config(sub)["level"] == "aggressive"
    (sub / "harp.toml").write_text('deny = ["no-alias"]\n')
    assert load_config(sub) == {"deny": ["no-alias"]}


@pytest.mark.parametrize(("line", "error"), [
    ('select = "HARP201"', "`select`: Input should be a valid list"),
    ("select = [201]", "`select[1]`: Input should be a valid string"),
    ('selct = ["HARP201"]', "`selct`: Extra inputs are not permitted"),
    ('assume = "pure"', "`assume`: Input should be a valid list"),
    ('deny = ["nonsense"]', "unknown assumption kind 'nonsense'"),
    ('ignore = ["HARP999"]', "unknown hint id 'HARP999'"),
    ('level = "loud"', "`level`: Input should be 'conservative', 'default' or 'aggressive'"),
])
def test_a_bad_config_is_an_error_naming_the_file_and_key(tmp_path, line, error):
    (tmp_path / "pyproject.toml").write_text(f"[tool.harp]\n{line}\n")
    with pytest.raises(ConfigError) as info:
        load_config(tmp_path)
    assert str(info.value).startswith(f"{tmp_path / 'pyproject.toml'}: error: ")
    assert error in str(info.value)


def test_unknown_ids_and_kinds_on_the_command_line_are_errors():
    with pytest.raises(ConfigError, match="unknown hint id 'HARP999'"):
        Feedback(select={"HARP999"})
    with pytest.raises(ConfigError, match="unknown assumption kind 'bogus'"):
        Feedback(deny={"bogus:x"})
    assert Feedback(assume={"tensor:loss"}, ignore={"HARP201"})


def run_cli(tmp_path, capsys, *args):
    (tmp_path / "train.py").write_text(SRC)
    status = harp.main(["analyze", "--format", "json", *args, str(tmp_path / "train.py")])
    return status, [(h["id"], h["span"]["line"]) for h in
                    json.loads(capsys.readouterr().out)["hints"]]


def test_cli_default_level_and_inline_ignore(tmp_path, capsys):
    status, found = run_cli(tmp_path, capsys)
    assert status == 1
    # the loop also runs the model without backward: HARP303 on the loop itself; one
    # `.item()` a step (line 8) and a literal of two numbers converted each step (line 10)
    # are the aggressive level's
    assert found == [("HARP303", 6), ("HARP402", 9), ("HARP301", 11)]
    # there, the ignore on line 11 silences only HARP201, not the invariant `w.sum()`
    _, found = run_cli(tmp_path, capsys, "--level", "aggressive")
    assert ("HARP201", 8) in found and ("HARP201", 11) not in found
    assert ("HARP301", 11) in found and ("HARP202", 10) in found


def test_cli_conservative_drops_speculated_medium_risk(tmp_path, capsys):
    _, found = run_cli(tmp_path, capsys, "--level", "conservative")
    assert found == [("HARP303", 6), ("HARP402", 9)]


def test_cli_deny_and_select(tmp_path, capsys):
    _, found = run_cli(tmp_path, capsys, "--level", "aggressive", "--deny", "no-alias")
    assert ("HARP202", 10) not in found and ("HARP402", 9) in found
    _, found = run_cli(tmp_path, capsys, "--select", "harp402")
    assert found == [("HARP402", 9)]


def test_cli_reads_tool_harp_from_pyproject(tmp_path, capsys):
    (tmp_path / "pyproject.toml").write_text('[tool.harp]\nignore = ["HARP402"]\n')
    _, found = run_cli(tmp_path, capsys)
    assert ("HARP402", 9) not in found
    _, found = run_cli(tmp_path, capsys, "--no-config")
    assert ("HARP402", 9) in found


def test_sarif_has_the_required_fields(tmp_path, capsys):
    (tmp_path / "train.py").write_text(SRC)
    assert harp.main(["analyze", "--format", "sarif", str(tmp_path / "train.py")]) == 1
    log = json.loads(capsys.readouterr().out)
    assert log["version"] == "2.1.0" and "$schema" in log
    run = log["runs"][0]
    assert run["tool"]["driver"]["name"] == "harp"
    rule_ids = [r["id"] for r in run["tool"]["driver"]["rules"]]
    for result in run["results"]:
        assert result["ruleId"] in rule_ids
        assert rule_ids[result["ruleIndex"]] == result["ruleId"]
        assert result["message"]["text"]
        region = result["locations"][0]["physicalLocation"]["region"]
        assert region["startLine"] >= 1 and region["startColumn"] >= 1
    assert run["invocations"][0]["executionSuccessful"] is True


SARIF_SCHEMA = Path(__file__).parents[2] / ".venv" / "share" / "sarif-schema-2.1.0.json"


@pytest.mark.parametrize("where", ["train.py", "notebook.ipynb", "nothing.py"])
def test_sarif_is_valid_against_the_official_schema(tmp_path, capsys, where):
    """`make unit` fetches the official schema (Makefile, SARIF_SCHEMA); a run without it
    fails here rather than passing untested."""
    import jsonschema

    assert SARIF_SCHEMA.is_file(), f"{SARIF_SCHEMA} is missing: run `make unit`"
    schema = json.loads(SARIF_SCHEMA.read_text())
    assert schema["title"].startswith("Static Analysis Results Format (SARIF) Version 2.1.0")
    if where == "notebook.ipynb":
        import nbformat

        nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(SRC)])
        nbformat.write(nb, str(tmp_path / where))
    else:
        (tmp_path / where).write_text(SRC if where == "train.py" else "x = 1\n")
    harp.main(["analyze", "--output-format", "sarif", str(tmp_path / where)])
    log = json.loads(capsys.readouterr().out)
    assert where == "nothing.py" or log["runs"][0]["results"]
    errors = sorted(jsonschema.Draft4Validator(schema).iter_errors(log), key=str)
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:5])


def test_dynamic_features_add_a_not_patched_assumption(tmp_path, capsys):
    (tmp_path / "train.py").write_text(
        "import torch\ntorch.randn = lambda *a: 0\nn = 100\nfor i in range(n):\n"
        "    v = torch.ones(1, device='cuda').item()\n")
    harp.main(["analyze", "--level", "aggressive", "--format", "json",
               str(tmp_path / "train.py")])
    (h,) = json.loads(capsys.readouterr().out)["hints"]
    patched = [a for a in h["assumptions"] if a["kind"] == "not-patched"]
    assert patched and "monkey-patch (line 2)" in patched[0]["subject"]
    assert harp.main(["analyze", "--level", "aggressive", "--deny", "not-patched",
                      str(tmp_path / "train.py")]) == 0


def test_assumptions_come_from_one_vocabulary():
    with pytest.raises(ValueError):
        Assumption("vibes", "", "low", "proved")
