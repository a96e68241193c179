"""Notebooks: read with nbformat, hints at their cell and line, `--apply` touches only the
changed code cells' source, and the fixed notebook computes what the original did."""

import contextlib
import io
import json
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

from harp_ir import notebook
from harp_ir.cli import harp

AGGRESSIVE = ("--level", "aggressive")  # one `.item()` a step: HARP201 is shown there
TRAIN_CELL = """running = 0.0
for x in data:
    loss = model(x).pow(2).mean()
    loss.backward()
    running += loss.item()
print(round(running / len(data), 4))"""


def make_notebook(path, cells=None):
    """A notebook as Jupyter saves it: markdown, magics, a shell escape, outputs,
    execution counts, metadata, cell ids."""
    nb = new_notebook(metadata={"kernelspec": {"name": "python3", "display_name": "Python 3",
                                               "language": "python"}})
    nb.cells = cells or [
        new_markdown_cell("# Training\nA tiny model."),
        new_code_cell("import torch\n%matplotlib inline\n!echo hello\n\ntorch.manual_seed(0)",
                      execution_count=1),
        new_code_cell("model = torch.nn.Linear(3, 1)\n"
                      "data = [torch.randn(4, 3) for _ in range(5)]", execution_count=2,
                      outputs=[new_output("stream", name="stdout", text="ok\n")]),
        new_code_cell(TRAIN_CELL, execution_count=3,
                      outputs=[new_output("stream", name="stdout", text="0.5\n")],
                      metadata={"tags": ["train"]}),
        new_code_cell("%%bash\nls -l | wc -l\nfor f in *; do echo $f; done"),
        new_code_cell("files = !ls\n%time y = torch.ones(2)\nhelp?"),
    ]
    nbformat.write(nb, str(path))
    return nb


def run_cells(path) -> str:
    """Run a notebook's code cells in one namespace, as a kernel would (IPython syntax
    skipped), and return what they printed."""
    nb = nbformat.read(str(path), as_version=4)
    out, namespace = io.StringIO(), {}
    with contextlib.redirect_stdout(out):
        for cell in nb.cells:
            if cell.cell_type != "code" or cell.source.startswith("%%"):
                continue
            code = "\n".join(line for line in cell.source.splitlines()
                             if not line.lstrip().startswith(("%", "!"))
                             and "!" not in line and not line.endswith("?"))
            exec(compile(code, str(path), "exec"), namespace)
    return out.getvalue()


def test_join_maps_lines_back_to_cells_and_keeps_magics_opaque(tmp_path):
    path = tmp_path / "nb.ipynb"
    make_notebook(path)
    joined = notebook.join(nbformat.read(str(path), as_version=4), str(path))
    lines = joined.source.splitlines()
    line = lines.index("    running += loss.item()") + 1
    assert joined.locate(line) == (4, 5)  # cell 4 (the markdown cell counts), its line 5
    assert "get_ipython().run_line_magic('matplotlib', 'inline')  # harp-magic 0" in lines
    assert "get_ipython().system('echo hello')  # harp-magic 1" in lines
    assert any(x.startswith("files = get_ipython().system('ls')") for x in lines)
    assert "ls -l | wc -l" not in joined.source  # a %%bash body is not Python
    assert joined.errors == []
    # the split gives back each cell's own source, magics included
    cells = notebook.split(joined.source, joined.magics)
    nb = nbformat.read(str(path), as_version=4)
    assert cells == {i: nb.cells[i - 1].source for i in (2, 3, 4, 5, 6)}


def test_hints_land_on_the_cell_and_line(tmp_path, capsys):
    path = tmp_path / "nb.ipynb"
    make_notebook(path)
    assert harp.main(["analyze", *AGGRESSIVE, str(path)]) == 1
    out = capsys.readouterr().out
    assert f"{path}:cell 4:5:16: HARP201 host-sync-in-loop:" in out
    assert "loop (cell 4 line 2)" in out  # the loop is named by its cell and line too
    assert harp.main(["analyze", *AGGRESSIVE, "--format", "json", str(path)]) == 1
    data = json.loads(capsys.readouterr().out)
    [hint] = [h for h in data["hints"] if h["id"] == "HARP201"]
    assert hint["span"]["cell"] == 4 and hint["span"]["line"] == 5
    assert harp.main(["analyze", *AGGRESSIVE, "--format", "sarif", str(path)]) == 1
    [result] = [r for r in json.loads(capsys.readouterr().out)["runs"][0]["results"]
                if r["ruleId"] == "HARP201"]
    assert result["properties"]["cell"] == 4
    assert result["locations"][0]["physicalLocation"]["region"]["startLine"] == 5


def test_inline_ignore_in_a_cell(tmp_path, capsys):
    path = tmp_path / "nb.ipynb"
    cells = make_notebook(tmp_path / "base.ipynb").cells
    cells[3] = new_code_cell(TRAIN_CELL.replace("loss.item()",
                                                "loss.item()  # harp: ignore[HARP201]"))
    make_notebook(path, cells)
    harp.main(["analyze", *AGGRESSIVE, str(path)])
    assert "HARP201" not in capsys.readouterr().out


def test_cell_that_is_not_python_is_an_error_and_the_rest_is_analysed(tmp_path, capsys):
    path = tmp_path / "nb.ipynb"
    cells = make_notebook(tmp_path / "base.ipynb").cells
    cells.insert(1, new_code_cell("x = 1\nprint 'python 2', `x`"))
    make_notebook(path, cells)
    assert harp.main(["analyze", *AGGRESSIVE, str(path)]) == 2
    captured = capsys.readouterr()
    assert f"{path}:cell 2:2:1: error: Missing parentheses" in captured.err
    assert f"{path}:cell 5:5:16: HARP201" in captured.out
    assert "Traceback" not in captured.err


def test_directories_include_notebooks_but_not_checkpoints(tmp_path, capsys):
    make_notebook(tmp_path / "nb.ipynb")
    (tmp_path / ".ipynb_checkpoints").mkdir()
    make_notebook(tmp_path / ".ipynb_checkpoints" / "nb-checkpoint.ipynb")
    assert harp.main(["analyze", *AGGRESSIVE, str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "nb.ipynb:cell 4:5:16" in out and "checkpoint" not in out


def test_a_notebook_is_never_parsed_as_python(tmp_path, capsys):
    path = tmp_path / "broken.ipynb"
    path.write_text("{ not json")
    assert harp.main(["analyze", *AGGRESSIVE, str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{path}:1:1: error: cannot read the notebook" in err


def test_apply_rewrites_only_the_changed_cell_and_keeps_what_it_computes(tmp_path, capsys):
    path = tmp_path / "nb.ipynb"
    make_notebook(path)
    before_text = path.read_text()
    before = nbformat.reads(before_text, as_version=nbformat.NO_CONVERT)
    expected = run_cells(path)
    assert harp.main(["refactor", *AGGRESSIVE, "--apply", "--select", "HARP201", str(path)]) == 0
    assert "fixed HARP201" in capsys.readouterr().out
    after = nbformat.read(str(path), as_version=nbformat.NO_CONVERT)
    nbformat.validate(after)
    assert after.nbformat == before.nbformat and after.nbformat_minor == before.nbformat_minor
    assert after.metadata == before.metadata
    changed = [i for i, (a, b) in enumerate(zip(before.cells, after.cells, strict=True))
               if a != b]
    assert changed == [3]  # the training cell, nothing else
    old, new = before.cells[3], after.cells[3]
    assert (new.id, new.outputs, new.metadata, new.execution_count) == (
        old.id, old.outputs, old.metadata, old.execution_count)
    assert "loss.item()" not in new.source and "running.item()" in new.source
    assert after.cells[1].source == before.cells[1].source  # magics kept verbatim
    assert run_cells(path) == expected  # the fixed notebook computes the same
    # applying again changes nothing
    assert harp.main(["refactor", *AGGRESSIVE, "--apply", "--select", "HARP201", str(path)]) == 0
    assert nbformat.read(str(path), as_version=nbformat.NO_CONVERT) == after


def test_apply_declines_a_notebook_it_cannot_rewrite_exactly(tmp_path, capsys):
    path = tmp_path / "nb.ipynb"
    nb = make_notebook(path)
    path.write_text(json.dumps(nb, indent=4))  # not nbformat's layout
    text = path.read_text()
    assert harp.main(["refactor", *AGGRESSIVE, "--apply", "--select", "HARP201", str(path)]) == 2
    assert "JSON layout" in capsys.readouterr().err
    assert path.read_text() == text


@pytest.mark.parametrize("line", ["%load_ext autoreload", "!pip install x", "obj?",
                                  "torch.nn.Module??", "torch.*Tensor?",
                                  "x = %time f()", "    !ls"])
def test_ipython_lines_round_trip(line):
    source = f"if True:\n    pass\n{line}" if line.startswith(" ") else line
    nb = new_notebook(cells=[new_code_cell(source)])
    joined = notebook.join(nb, "nb.ipynb")
    assert joined.errors == []
    assert notebook.split(joined.source, joined.magics) == {1: source}


def test_a_shell_line_continued_by_backslashes_is_one_command(tmp_path, capsys):
    """`!python train.py \\` on several lines is one shell command to IPython, not an
    indented block: the cell is analysed, and comes back verbatim."""
    source = ("import os\nos.environ['N'] = '2'\n\n!python extract.py \\\n"
              "    --root $ROOT \\\n    --n $N\nfiles = !ls \\\n  -l\nprint(files)")
    nb = new_notebook(cells=[new_code_cell(source)])
    joined = notebook.join(nb, "nb.ipynb")
    assert joined.errors == []
    assert "get_ipython().system('python extract.py      --root $ROOT      --n $N')" \
        in joined.source
    assert "files = get_ipython().system('ls    -l')" in joined.source
    assert notebook.split(joined.source, joined.magics) == {1: source}
    path = tmp_path / "nb.ipynb"
    nbformat.write(nb, str(path))
    assert harp.main(["analyze", str(path)]) == 0
    assert "error" not in capsys.readouterr().out


def test_flake8_plugin_names_the_cell(tmp_path, monkeypatch):
    from harp_ir.flake8_plugin import HarpChecker

    path = tmp_path / "nb.ipynb"
    make_notebook(path)
    monkeypatch.setattr(HarpChecker, "level", "aggressive")  # one `.item()` a step
    [(line, col, message, _)] = [r for r in HarpChecker(None, str(path)).run()
                                 if "HARP201" in r[2]]
    assert (line, col) == (5, 15)
    assert message.startswith("HRP201 host-sync-in-loop (HARP201): cell 4:5: ")


def test_apply_declines_a_notebook_holding_harps_cell_marker(tmp_path, capsys):
    path = tmp_path / "nb.ipynb"
    cells = make_notebook(tmp_path / "base.ipynb").cells
    cells[2] = new_code_cell(cells[2].source + "\n# %% harp cell 9")
    make_notebook(path, cells)
    text = path.read_text()
    assert harp.main(["refactor", *AGGRESSIVE, "--apply", "--select", "HARP201", str(path)]) == 2
    assert "mark cells" in capsys.readouterr().err
    assert path.read_text() == text


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_notebook_beside_a_py_file_of_the_same_stem_keeps_its_hints(tmp_path, capsys, jobs):
    """`train.ipynb` next to `train.py` in a directory run: both are analysed (Python can
    import only the .py; the notebook is a program of its own in the same folder)."""
    make_notebook(tmp_path / "train.ipynb")
    (tmp_path / "train.py").write_text(
        "import torch\nmodel = torch.nn.Linear(3, 1).cuda()\n"
        "data = [torch.randn(4, 3).cuda() for _ in range(500)]\nrunning = 0.0\n"
        "for x in data:\n    loss = model(x).pow(2).mean()\n    loss.backward()\n"
        "    running += loss.item()\nprint(running)\n")
    (tmp_path / "other.py").write_text("from train import model\nprint(model)\n")
    assert harp.main(["analyze", *AGGRESSIVE, "-j", jobs, str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "train.ipynb:cell 4:5:16: HARP201" in out
    assert "train.py:8:16: HARP201" in out  # and the .py keeps its own
    assert harp.main(["analyze", *AGGRESSIVE, str(tmp_path / "train.ipynb")]) == 1
    alone = capsys.readouterr().out
    assert "train.ipynb:cell 4:5:16: HARP201" in alone


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
@pytest.mark.parametrize("final", [True, False])
def test_apply_keeps_line_endings_and_the_final_newline(tmp_path, capsys, newline, final):
    """A notebook saved with CRLF line endings (Windows), with or without a final
    newline, keeps them: only the fixed cell's text changes."""
    path = tmp_path / "nb.ipynb"
    make_notebook(path)
    text = path.read_text().rstrip("\n") + ("\n" if final else "")
    path.write_bytes(text.replace("\n", newline).encode())
    assert harp.main(["refactor", *AGGRESSIVE, "--apply", "--select", "HARP201", str(path)]) == 0
    assert "fixed HARP201" in capsys.readouterr().out
    data = path.read_bytes().decode()
    assert data.endswith(newline) == final
    assert data.count(newline) == data.count("\n")  # every line ends the same way
    after = nbformat.reads(data, as_version=nbformat.NO_CONVERT)
    assert "loss.item()" not in after.cells[3].source


def test_apply_declines_mixed_line_endings(tmp_path, capsys):
    path = tmp_path / "nb.ipynb"
    make_notebook(path)
    lines = path.read_text().split("\n")
    data = ("\r\n".join(lines[:10]) + "\n" + "\n".join(lines[10:])).encode()
    path.write_bytes(data)
    assert harp.main(["refactor", *AGGRESSIVE, "--apply", "--select", "HARP201", str(path)]) == 2
    assert "mixes CRLF and LF" in capsys.readouterr().err
    assert path.read_bytes() == data


def test_refactor_reports_a_cell_it_cannot_parse(tmp_path, capsys):
    """As `analyze` does: the cell is named, the exit status is 2, the other cells are
    still fixed."""
    path = tmp_path / "nb.ipynb"
    cells = make_notebook(tmp_path / "base.ipynb").cells
    cells.insert(1, new_code_cell('print "a Python 2 cell", `1`'))
    make_notebook(path, cells)
    assert harp.main(["refactor", *AGGRESSIVE, "--select", "HARP201", str(path)]) == 2
    captured = capsys.readouterr()
    assert f"{path}:cell 2:1:1: error: Missing parentheses in call to 'print'" in captured.err
    assert "loss.item()" in captured.out  # the diff of the training cell's fix
    assert harp.main(["refactor", *AGGRESSIVE, "--apply", "--select", "HARP201", str(path)]) == 2
    assert "fixed HARP201" in capsys.readouterr().out


def _nbformat3(path):
    """A notebook as IPython 2 saved it: nbformat 3, cells in worksheets, `input`."""
    cell = {"cell_type": "code", "language": "python", "metadata": {}, "outputs": [],
            "input": "import torch\nmodel = torch.nn.Linear(2, 2).cuda()\ntotal = 0.0\n"
                     "for x in loader:\n    loss = model(x).sum()\n    loss.backward()\n"
                     "    total += loss.item()\n"}
    path.write_text(json.dumps({
        "metadata": {"name": ""}, "nbformat": 3, "nbformat_minor": 0,
        "worksheets": [{"metadata": {}, "cells": [
            {"cell_type": "markdown", "metadata": {}, "source": "# old"}, cell]}]}))


def test_an_nbformat3_notebook_is_analysed_and_not_rewritten(tmp_path, capsys):
    path = tmp_path / "old.ipynb"
    _nbformat3(path)
    before = path.read_bytes()
    assert harp.main(["analyze", *AGGRESSIVE, str(path)]) == 1
    captured = capsys.readouterr()
    assert f"{path}:cell 2:7:14: HARP201" in captured.out and "error" not in captured.err
    assert harp.main(["refactor", *AGGRESSIVE, "--apply", str(path)]) == 2
    assert "not rewritten: it is in nbformat 3" in capsys.readouterr().err
    assert path.read_bytes() == before


@pytest.mark.parametrize("source", [7, None, {"a": 1}, ["x = 1\n", 2]])
def test_a_cell_whose_source_is_not_text_is_an_error_at_its_cell(tmp_path, capsys, source):
    """And a directory run goes on: the notebook's other cells and the other files are
    analysed."""
    make_notebook(tmp_path / "good.ipynb")
    bad = json.loads((tmp_path / "good.ipynb").read_text())
    bad["cells"][1]["source"] = source
    (tmp_path / "bad.ipynb").write_text(json.dumps(bad))
    for command in ("analyze", "refactor"):
        assert harp.main([command, *AGGRESSIVE, str(tmp_path)]) == 2
        captured = capsys.readouterr()
        assert f"{tmp_path / 'bad.ipynb'}:cell 2:1:1: error: the cell's source is not text" \
            in captured.err and "Traceback" not in captured.err
        assert "good.ipynb" in captured.out  # its hint, or its fix's diff
    assert harp.main(["analyze", *AGGRESSIVE, str(tmp_path / "bad.ipynb")]) == 2
    assert "bad.ipynb:cell 4:5:16: HARP201" in capsys.readouterr().out


def test_python2_cells_are_analysed_and_never_rewritten(tmp_path, capsys):
    """A Python 2 cell (print statements) is read as Python 3 at its own lines; a fix in
    it is declined, while a fix in another cell is still made and that cell alone changes."""
    path = tmp_path / "nb.ipynb"
    cells = make_notebook(tmp_path / "base.ipynb").cells
    python2 = TRAIN_CELL.replace("print(round(running / len(data), 4))",
                                 "print 'mean loss', round(running / len(data), 4)")
    cells.insert(4, new_code_cell(python2))
    make_notebook(path, cells)
    assert harp.main(["analyze", *AGGRESSIVE, str(path)]) == 1
    out = capsys.readouterr().out
    assert f"{path}:cell 4:5:16: HARP201" in out and f"{path}:cell 5:5:16: HARP201" in out
    before = nbformat.read(str(path), as_version=4)
    assert harp.main(["refactor", *AGGRESSIVE, "--apply", str(path)]) == 0
    captured = capsys.readouterr()
    assert "HARP201 not fixed: cell 5 is Python 2" in captured.out + captured.err
    after = nbformat.read(str(path), as_version=4)
    assert after.cells[4].source == before.cells[4].source  # the Python 2 cell, untouched
    assert after.cells[3].source != before.cells[3].source  # the fixed cell
    assert [c.source for i, c in enumerate(after.cells) if i != 3] == \
        [c.source for i, c in enumerate(before.cells) if i != 3]


def test_a_decline_after_a_fix_names_the_line_the_user_has(tmp_path, capsys):
    """A fix in an earlier cell adds a line; a fix declined in a later cell is reported at
    its line in the notebook as read (the cell is found from the file), not at the line
    the earlier fix's rewrite moved it to."""
    codemods = Path(__file__).resolve().parents[1] / "codemods"
    first = (codemods / "aggressive" / "host_sync_item.in.py").read_text()  # its fix adds a line
    second = (codemods / "sample_without_replacement_declines.in.py").read_text()
    declined_at = second.splitlines().index(
        "    idx = np.random.choice(400000, 32, replace=False)") + 1
    path = tmp_path / "nb.ipynb"
    make_notebook(path, [new_code_cell(first), new_code_cell(second)])
    harp.main(["refactor", "--no-config", *AGGRESSIVE, "--output-format", "json",
               str(path)])
    report = json.loads(capsys.readouterr().out)
    assert [a["id"] for f in report["files"] for a in f["applied"]] == ["HARP201"]
    [decline] = [d for d in report["declined"] if d["id"] == "HARP505"]
    assert (decline["span"]["cell"], decline["span"]["line"]) == (2, declined_at)
    # the same two programs in one .py file: the line of the file as read
    script = tmp_path / "both.py"
    script.write_text(first + second)
    harp.main(["refactor", "--no-config", *AGGRESSIVE, "--output-format", "json",
               str(script)])
    [decline] = [d for d in json.loads(capsys.readouterr().out)["declined"]
                 if d["id"] == "HARP505"]
    assert decline["span"]["line"] == len(first.splitlines()) + declined_at
