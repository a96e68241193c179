import shutil
import subprocess
import sys
from pathlib import Path

from harp_ir.flake8_plugin import HarpChecker

ROOT = Path(__file__).resolve().parents[2]


def test_plugin_yields_flake8_tuples():
    checker = HarpChecker(None, str(ROOT / "examples" / "torch_train.py"))
    results = list(checker.run())
    assert [(line, col, msg[:6]) for line, col, msg, _ in results] == [(25, 26, "HRP201")]
    assert results[0][2].startswith("HRP201 host-sync-in-loop (HARP201): ")
    assert results[0][3] is HarpChecker


def test_plugin_is_registered_as_a_flake8_extension():
    text = (ROOT / "pyproject.toml").read_text()
    assert 'HRP = "harp_ir.flake8_plugin:HarpChecker"' in text


def test_plugin_leaves_syntax_errors_to_flake8(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("def f(:\n")
    assert list(HarpChecker(None, str(bad)).run()) == []


def _flake8(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "flake8", "--select=HRP", *args],
                          cwd=cwd, capture_output=True, text=True, timeout=300)


def test_flake8_runs_the_plugin_and_reports_its_codes(tmp_path):
    """flake8 5.0 and later refuse a plugin whose code is not 1-3 letters: run it for real."""
    train = tmp_path / "train.py"
    shutil.copy(ROOT / "examples" / "torch_train.py", train)
    run = _flake8(str(train))
    assert "critical error" not in run.stderr, run.stderr
    assert run.returncode == 1
    [line] = run.stdout.splitlines()
    assert line.startswith(
        f"{train}:25:27: HRP201 host-sync-in-loop (HARP201): `p.grad.norm().item()`")


def test_flake8_noqa_silences_a_hint(tmp_path):
    lines = (ROOT / "examples" / "torch_train.py").read_text().splitlines(keepends=True)
    lines[24] = lines[24].rstrip("\n") + "  # noqa: HRP201\n"
    train = tmp_path / "train.py"
    train.write_text("".join(lines))
    run = _flake8(str(train))
    assert (run.returncode, run.stdout) == (0, "")


def test_flake8_reads_notebooks_with_the_cell_in_the_message(tmp_path):
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# training"),
                nbformat.v4.new_code_cell((ROOT / "examples" / "torch_train.py").read_text())]
    path = tmp_path / "train.ipynb"
    nbformat.write(nb, str(path))
    run = _flake8("--filename=*.ipynb", str(path))
    [line] = run.stdout.splitlines()
    assert line.startswith(f"{path}:25:27: HRP201 host-sync-in-loop (HARP201): cell 2:25: ")


def test_flake8_harp_level_shows_the_aggressive_hints(tmp_path):
    """`--harp-level aggressive` is `harp analyze --level aggressive`: the per-step
    `loss.item()` (one wait a step) shows up beside the per-parameter one."""
    train = tmp_path / "train.py"
    shutil.copy(ROOT / "examples" / "torch_train.py", train)
    default, aggressive = _flake8(str(train)), _flake8("--harp-level=aggressive", str(train))
    assert f"{train}:27:20: HRP201" not in default.stdout
    assert f"{train}:27:20: HRP201 host-sync-in-loop (HARP201): `loss.item()`" in \
        aggressive.stdout, aggressive.stderr
