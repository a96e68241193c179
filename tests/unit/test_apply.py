"""`harp refactor --apply` changes the fix and nothing else: line endings, BOM, encoding,
links, mode; it refuses read-only and concurrently edited files and goes on with the rest."""

import os
import stat
import tempfile
from pathlib import Path

import pytest

from harp_ir.cli import harp
from harp_ir.refactor import SourceFile, WriteError

FIXTURES = Path(__file__).resolve().parents[1] / "codemods"
BEFORE = (FIXTURES / "concat_torch.in.py").read_text()
AFTER = (FIXTURES / "concat_torch.out.py").read_text()


def apply(*paths) -> int:
    return harp.main(["refactor", "--apply", *map(str, paths)])


def test_crlf_line_endings_are_kept(tmp_path):
    path = tmp_path / "f.py"
    path.write_bytes(BEFORE.replace("\n", "\r\n").encode())
    assert apply(path) == 0
    assert path.read_bytes() == AFTER.replace("\n", "\r\n").encode()


def test_lone_cr_line_endings_are_refused_not_changed(tmp_path, capsys):
    path = tmp_path / "f.py"
    original = BEFORE.replace("\n", "\r").encode()
    path.write_bytes(original)
    assert apply(path) == 2
    assert path.read_bytes() == original and "lone CR" in capsys.readouterr().err


def test_mixed_line_endings_are_kept_line_by_line(tmp_path):
    lines = BEFORE.splitlines(keepends=True)
    mixed = "".join(line.replace("\n", "\r\n") if i % 2 else line for i, line in
                    enumerate(lines))
    path = tmp_path / "f.py"
    path.write_bytes(mixed.encode())
    assert apply(path) == 0
    out = path.read_bytes().decode()
    assert out.replace("\r\n", "\n") == AFTER
    assert out.count("\r\n") == mixed.count("\r\n")  # the changed line kept its ending


def test_bom_and_pep263_encoding_are_kept(tmp_path):
    bom = tmp_path / "bom.py"
    bom.write_bytes(b"\xef\xbb\xbf" + BEFORE.encode())
    latin = tmp_path / "latin.py"
    latin.write_bytes(("# -*- coding: latin-1 -*-\n# caf\xe9\n" + BEFORE).encode("latin-1"))
    assert apply(bom, latin) == 0
    assert bom.read_bytes() == b"\xef\xbb\xbf" + AFTER.encode()
    assert latin.read_bytes() == ("# -*- coding: latin-1 -*-\n# caf\xe9\n" +
                                  AFTER).encode("latin-1")


def test_symlink_is_written_through_and_stays_a_link(tmp_path):
    target = tmp_path / "real.py"
    target.write_text(BEFORE)
    link = tmp_path / "link.py"
    link.symlink_to(target)
    assert apply(link) == 0
    assert link.is_symlink() and target.read_text() == AFTER


def test_hard_link_and_mode_are_kept(tmp_path):
    path = tmp_path / "f.py"
    path.write_text(BEFORE)
    path.chmod(0o750)
    other = tmp_path / "g.txt"
    os.link(path, other)
    assert apply(path) == 0
    assert other.read_text() == AFTER and path.stat().st_ino == other.stat().st_ino
    assert stat.S_IMODE(path.stat().st_mode) == 0o750


def test_read_only_file_is_refused_and_the_others_are_fixed(tmp_path, capsys):
    locked = tmp_path / "a.py"
    locked.write_text(BEFORE)
    locked.chmod(0o444)
    fine = tmp_path / "b.py"
    fine.write_text(BEFORE)
    assert apply(locked, fine) == 2
    assert locked.read_text() == BEFORE and fine.read_text() == AFTER
    assert f"{locked}:1:1: error: read-only" in capsys.readouterr().err


def test_a_file_changed_since_it_was_read_is_not_overwritten(tmp_path):
    path = tmp_path / "f.py"
    path.write_text(BEFORE)
    original = SourceFile.read(path)
    path.write_text(BEFORE + "# edited meanwhile\n")
    with pytest.raises(WriteError, match="changed since"):
        original.write(AFTER)
    assert path.read_text().endswith("# edited meanwhile\n")


def _edit_meanwhile(path: Path):
    with open(path, "a") as f:  # another program's append, as `>>` makes it
        f.write("# edited meanwhile\n")


def test_an_edit_made_while_the_new_file_is_written_is_not_lost(tmp_path, monkeypatch):
    path = tmp_path / "f.py"
    path.write_text(BEFORE)
    original = SourceFile.read(path)
    mkstemp = tempfile.mkstemp

    def edit_then_mkstemp(*args, **kwargs):
        _edit_meanwhile(path)
        return mkstemp(*args, **kwargs)

    monkeypatch.setattr(tempfile, "mkstemp", edit_then_mkstemp)
    with pytest.raises(WriteError, match="changed since"):
        original.write(AFTER)
    assert path.read_text() == BEFORE + "# edited meanwhile\n"
    assert [p.name for p in tmp_path.iterdir()] == ["f.py"]  # nothing left behind


def test_an_edit_made_at_the_rename_is_put_back(tmp_path, monkeypatch):
    """The compare-and-swap: an edit between the last check and the rename lands in the
    file the rename replaces; harp puts that file back and refuses."""
    path = tmp_path / "f.py"
    path.write_text(BEFORE)
    original = SourceFile.read(path)
    replace = os.replace

    def edit_then_replace(src, dst):
        if Path(dst) == path and str(src).endswith(".harp"):
            _edit_meanwhile(path)
        return replace(src, dst)

    monkeypatch.setattr(os, "replace", edit_then_replace)
    with pytest.raises(WriteError, match="changed since"):
        original.write(AFTER)
    assert path.read_text() == BEFORE + "# edited meanwhile\n"
    assert [p.name for p in tmp_path.iterdir()] == ["f.py"]


def test_an_edit_to_a_hard_linked_file_is_not_lost(tmp_path, monkeypatch):
    path = tmp_path / "f.py"
    path.write_text(BEFORE)
    os.link(path, tmp_path / "g.txt")  # written in place, through one handle
    original = SourceFile.read(path)
    stat_of, edits = Path.stat, []

    def edit_after_stat(self, *args, **kwargs):
        result = stat_of(self, *args, **kwargs)
        if self == path and not edits:  # once, after harp looked at the file
            edits.append(_edit_meanwhile(path))
        return result

    monkeypatch.setattr(Path, "stat", edit_after_stat)
    with pytest.raises(WriteError, match="changed since"):
        original.write(AFTER)
    monkeypatch.undo()
    assert path.read_text() == BEFORE + "# edited meanwhile\n"


def test_text_the_encoding_cannot_hold_is_not_written(tmp_path):
    path = tmp_path / "f.py"
    path.write_bytes(b"# -*- coding: ascii -*-\nx = 1\n")
    with pytest.raises(WriteError, match="encoding"):
        SourceFile.read(path).write("# -*- coding: ascii -*-\nx = '\u00e9'\n")
    assert path.read_bytes() == b"# -*- coding: ascii -*-\nx = 1\n"


def test_an_undecodable_file_is_reported_and_the_others_are_fixed(tmp_path, capsys):
    bad = tmp_path / "a.py"
    bad.write_bytes(b"x = '\xff'\n")
    fine = tmp_path / "b.py"
    fine.write_text(BEFORE)
    assert apply(tmp_path) == 2
    assert fine.read_text() == AFTER
    assert f"{bad}:1:1: error: cannot decode" in capsys.readouterr().err
