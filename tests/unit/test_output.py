"""What `harp analyze --output-format` prints: golden files for concise and full (written
by hand once, checked by eye, then compared byte for byte), GitHub annotations and their
escaping, colour only on a terminal and never under NO_COLOR."""

import io
import json
from pathlib import Path

import pytest

from harp_ir import output
from harp_ir.analysis import Assumption, Span
from harp_ir.cli import harp
from harp_ir.report import Hint

ROOT = Path(__file__).resolve().parents[2]
INPUTS = ROOT / "tests" / "lit" / "cli" / "Inputs"
GOLDEN = Path(__file__).parent / "golden"


@pytest.mark.parametrize("fmt", ["concise", "full"])
def test_text_formats_match_their_golden_files(monkeypatch, capsys, fmt):
    monkeypatch.chdir(INPUTS)
    monkeypatch.delenv("NO_COLOR", raising=False)
    status = harp.main(["analyze", "--no-config", "--output-format", fmt, "train.py",
                        "agent_program"])
    captured = capsys.readouterr()
    got = f"$ stdout\n{captured.out}$ stderr\n{captured.err}"
    golden = GOLDEN / f"analyze_{fmt}.txt"
    assert status == 1
    assert got == golden.read_text(encoding="utf-8"), f"compare with {golden}"


def test_concise_is_one_line_a_hint_and_marks_safe_fixes(monkeypatch, capsys):
    monkeypatch.chdir(INPUTS)
    harp.main(["analyze", "--no-config", "--output-format", "json", "train.py",
               "agent_program"])
    hints = json.loads(capsys.readouterr().out)["hints"]
    harp.main(["analyze", "--no-config", "train.py", "agent_program"])
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(hints) >= 2
    for line, h in zip(lines, hints, strict=True):
        assert line.startswith(f"{h['span']['file']}:{h['span']['line']}:{h['span']['col']}: "
                               f"{h['id']} {h['name']}: ")
        assert line.endswith(" [*]") == (h["fix"] == "safe")
    assert any(h["fix"] == "safe" for h in hints)
    assert all(h["doc"] == f"harp explain {h['id']}" for h in hints)


def _hint(**changes) -> Hint:
    fields = dict(id="HARP201", name="host-sync-in-loop",
                  span=Span("dir,with:odd%chars/train.py", 3, 5, 3, 16),
                  message="`loss.item()` waits: 100% of\nthe time", refactoring="keep it",
                  fix="safe", assumptions=[Assumption("tensor", "loss", "medium",
                                                      "speculated", "a guess")])
    return Hint(**{**fields, **changes})


def test_github_annotations_escape_properties_and_messages():
    line = output.github(_hint())
    assert line == ("::warning file=dir%2Cwith%3Aodd%25chars/train.py,line=3,col=5,"
                    "endLine=3,endColumn=16,title=HARP201 host-sync-in-loop::"
                    "`loss.item()` waits: 100%25 of%0Athe time [safe fix: harp refactor --apply]")
    # a notebook's lines are its cell's: the annotation names the cell, not a diff line
    cell = output.github(_hint(span=Span("nb.ipynb", 2, 1, 2, 9, cell=4), fix="none"))
    assert cell.startswith("::warning file=nb.ipynb,title=HARP201 host-sync-in-loop "
                           "(cell 4%2C line 2)::")


def test_github_format_turns_error_lines_into_error_annotations(monkeypatch, capsys):
    monkeypatch.chdir(INPUTS)
    status = harp.main(["analyze", "--no-config", "--output-format", "github", "broken.py",
                        "train.py"])
    out = capsys.readouterr().out.splitlines()
    assert status == 2
    assert out[0].startswith("::warning file=train.py,line=25,col=27,")
    assert out[1].startswith("::error file=broken.py,line=4,col=")
    assert "error:" not in out[1]


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("no_color, coloured", [(None, True), ("1", False)])
def test_colour_on_a_terminal_unless_no_color(monkeypatch, no_color, coloured):
    if no_color is None:
        monkeypatch.delenv("NO_COLOR", raising=False)
    else:
        monkeypatch.setenv("NO_COLOR", no_color)
    out, err = _Terminal(), _Terminal()
    output.render("concise", [_hint()], [], "default", out, err)
    assert ("\033[" in out.getvalue()) == coloured
    assert ("\033[" in err.getvalue()) == coloured
    plain_out, plain_err = io.StringIO(), io.StringIO()  # a pipe or a file: never
    output.render("concise", [_hint()], [], "default", plain_out, plain_err)
    assert "\033[" not in plain_out.getvalue() + plain_err.getvalue()


def test_full_underlines_the_span_under_tabs_and_names_every_assumption(tmp_path):
    source = tmp_path / "t.py"
    source.write_text("for x in xs:\n\tif x:\n\t\ttotal += loss.item()\n")
    hint = _hint(span=Span(str(source), 3, 12, 3, 23))
    text = "\n".join(output.full(hint, output.Style(False)))
    assert "3 | \t\ttotal += loss.item()\n  | \t\t         ^^^^^^^^^^^" in text
    assert "  = assumes: tensor `loss` (speculated, medium risk: a guess)" in text
    assert "  = docs: harp explain HARP201" in text


def test_the_old_format_option_still_works(monkeypatch, capsys):
    monkeypatch.chdir(INPUTS)
    assert harp.main(["analyze", "--no-config", "--format", "json", "train.py"]) == 1
    assert json.loads(capsys.readouterr().out)["hints"][0]["id"] == "HARP201"


def test_refactor_json_report_lists_fixes_declines_and_errors(monkeypatch, capsys, tmp_path):
    declines = ROOT / "tests" / "codemods" / "sample_without_replacement_declines.in.py"
    monkeypatch.chdir(INPUTS)
    status = harp.main(["refactor", "--no-config", "--level", "aggressive", "--output-format",
                        "json", "train.py", "broken.py", str(declines)])
    report = json.loads(capsys.readouterr().out)
    assert status == 2  # broken.py
    [fixed] = report["files"]
    assert fixed["file"] == "train.py" and not fixed["written"]
    assert ("HARP201", "safe", 25) in [(a["id"], a["safety"], a["span"]["line"])
                                       for a in fixed["applied"]]
    assert fixed["diff"].startswith("# HARP201 host-sync-in-loop at line 25 (safe fix)")
    [decline] = [d for d in report["declined"] if d["span"]["file"] == str(declines)]
    assert decline["id"] == "HARP505" and "no drop-in rewrite" in decline["reason"]
    assert report["errors"] == ["broken.py:4:5: error: invalid syntax: '(' was never closed"]


def test_refactor_reports_a_file_it_cannot_read_as_such(monkeypatch, capsys, tmp_path):
    from harp_ir import refactor

    # a file with something to fix: one with nothing is left alone before it is read
    (tmp_path / "train.py").write_bytes(
        (ROOT / "tests" / "codemods" / "aggressive" / "host_sync_item.in.py").read_bytes())

    def unreadable(path):
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(refactor.SourceFile, "read", staticmethod(unreadable))
    assert harp.main(["refactor", "--no-config", "--level", "aggressive",
                      str(tmp_path / "train.py")]) == 2
    assert capsys.readouterr().err == \
        f"{tmp_path / 'train.py'}:1:1: error: cannot read: Permission denied\n"


def test_an_assumption_the_user_confirms_makes_the_fix_refactor_applies(monkeypatch, capsys,
                                                                        tmp_path):
    """`--assume one-batch` made HARP404's fix safe in analyze while refactor, testing
    the status string "proved", declined it as unproved (issue #27's "one truth")."""
    program = tmp_path / "predict.py"
    program.write_bytes((ROOT / "tests" / "codemods" /
                         "keras_predict_batches_unsafe.in.py").read_bytes())
    harp.main(["analyze", "--no-config", "--no-cache", "--output-format", "json",
               "--assume", "one-batch", str(program)])
    [hint] = json.loads(capsys.readouterr().out)["hints"]
    assert (hint["id"], hint["fix"]) == ("HARP404", "safe")
    harp.main(["refactor", "--no-config", "--output-format", "json", "--assume", "one-batch",
               str(program)])
    report = json.loads(capsys.readouterr().out)
    assert report["declined"] == []
    assert [(a["id"], a["safety"]) for f in report["files"] for a in f["applied"]] == [
        ("HARP404", "safe")]


def test_refactor_github_annotations(tmp_path, capsys):
    """`harp refactor --output-format github`: a notice where a fix is made, a warning
    where one is not and why, as workflow commands a pull request shows on its diff."""
    program = tmp_path / "train.py"
    program.write_bytes(
        (ROOT / "tests" / "codemods" / "aggressive" / "host_sync_item.in.py").read_bytes())
    assert harp.main(["refactor", "--no-config", "--level", "aggressive", "--output-format",
                      "github", str(program)]) == 0
    [line] = capsys.readouterr().out.splitlines()
    assert line.startswith(f"::notice file={program},line=10,col=16,")
    assert line.endswith("title=HARP201 host-sync-in-loop::fixable with `harp refactor "
                         "--apply` (safe fix): keep the value on the device (accumulate "
                         "with tensor ops) and sync once after the loop")
    declines = tmp_path / "seen.py"
    declines.write_bytes((ROOT / "tests" / "codemods" /
                          "concat_read_by_handler_declines.in.py").read_bytes())
    harp.main(["refactor", "--no-config", "--level", "aggressive", "--output-format",
               "github", str(declines)])
    [line] = capsys.readouterr().out.splitlines()
    assert line.startswith(f"::warning file={declines},line=9,col=16,")
    assert "title=HARP402 concat-in-loop::not fixed: an exception leaving the loop" in line
