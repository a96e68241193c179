import os
from pathlib import Path

from harp_ir.analysis import span
from harp_ir.cli import harp
from harp_ir.report import analyze_file, python_files

ROOT = Path(__file__).resolve().parents[2]


def test_example_hints_carry_assumptions(ctx):
    hints = analyze_file(ROOT / "examples" / "torch_train.py")
    assert [h.id for h in hints] == ["HARP501", "HARP201", "HARP201"]
    h = hints[2]
    assert "`loss.item()`" in h.message and "`for x, y` loop" in h.message
    tensor = next(a for a in h.assumptions if a.kind == "tensor")
    assert tensor.status == "speculated" and "module" in tensor.reason
    assert h.to_json()["doc"] == "harp explain HARP201"  # what ships, not a web page


def test_python_files_skips_virtualenvs_and_reports_missing(tmp_path):
    (tmp_path / ".venv").mkdir()
    (tmp_path / ".venv" / "x.py").write_text("")
    (tmp_path / "b.py").write_text("")
    (tmp_path / "a.py").write_text("")
    files, errors = python_files([str(tmp_path), str(tmp_path / "nope.py")])
    assert [f.name for f in files] == ["a.py", "b.py"]
    assert errors == [f"{tmp_path / 'nope.py'}: error: no such file or directory"]


def test_python_scripts_without_a_suffix_are_found_by_their_first_line(tmp_path):
    """A project's `train` script, run as `./train`, is checked with the rest; a shell
    script or a data file without a suffix is not."""
    (tmp_path / "train").write_text("#!/usr/bin/python3\nimport torch\n")
    (tmp_path / "test").write_text("#!/usr/bin/env python\nprint(1)\n")
    (tmp_path / "download").write_text("#!/bin/bash\necho python\n")
    (tmp_path / "LICENSE").write_text("python is named here\n")
    (tmp_path / "a.py").write_text("")
    files, errors = python_files([str(tmp_path)])
    assert [f.name for f in files] == ["a.py", "test", "train"] and errors == []


def test_a_folder_that_cannot_be_read_is_an_error_not_skipped(tmp_path, monkeypatch,
                                                               capsys):
    """As a user without permission sees it (the tests may run as root, whom a mode of
    000 does not stop, so the listing itself is refused)."""
    (tmp_path / "a.py").write_text("")
    (tmp_path / "locked").mkdir()
    (tmp_path / "locked" / "b.py").write_text("")
    scandir = os.scandir

    def refuse(path="."):
        if Path(path) == tmp_path / "locked":
            raise PermissionError(13, "Permission denied", str(path))
        return scandir(path)

    monkeypatch.setattr(os, "scandir", refuse)
    files, errors = python_files([str(tmp_path)])
    assert [f.name for f in files] == ["a.py"]
    assert errors == [f"{tmp_path / 'locked'}: error: cannot read the folder: "
                      f"Permission denied"]
    for command in ("analyze", "refactor"):
        assert harp.main([command, "--no-config", str(tmp_path)]) == 2
        assert "locked: error: cannot read the folder" in capsys.readouterr().err


def test_span_parses_ranges_and_points(ctx):
    from torch_mlir import ir

    s = span(ir.Location.file("a.py", 3, 4, 5, 6))
    assert (s.file, s.line, s.col, s.end_line, s.end_col) == ("a.py", 3, 4, 5, 6)
    s = span(ir.Location.file("a.py", 3, 4))
    assert (s.line, s.col, s.end_line, s.end_col) == (3, 4, 3, 4)
    assert span(ir.Location.unknown()) is None


def test_python_files_excludes_globs_relative_to_the_folder(tmp_path):
    for rel in ("a.py", "tests/t.py", "pkg/tests/u.py", "pkg/m.py", "nb.ipynb"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("")
    files, _ = python_files([str(tmp_path)], ("tests/*", "*/tests/*"))
    assert sorted(f.relative_to(tmp_path).as_posix() for f in files) == [
        "a.py", "nb.ipynb", "pkg/m.py"]
