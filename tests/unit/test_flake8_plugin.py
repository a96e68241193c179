from pathlib import Path

from harp_ir.flake8_plugin import HarpChecker

ROOT = Path(__file__).resolve().parents[2]


def test_plugin_yields_flake8_tuples():
    checker = HarpChecker(None, str(ROOT / "examples" / "torch_train.py"))
    results = list(checker.run())
    assert [(line, col, msg[:7]) for line, col, msg, _ in results] == [(25, 19, "HARP201")]
    assert results[0][2].startswith("HARP201 host-sync-in-loop: ")
    assert results[0][3] is HarpChecker


def test_plugin_is_registered_as_a_flake8_extension():
    text = (ROOT / "pyproject.toml").read_text()
    assert 'HARP = "harp_ir.flake8_plugin:HarpChecker"' in text


def test_plugin_leaves_syntax_errors_to_flake8(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("def f(:\n")
    assert list(HarpChecker(None, str(bad)).run()) == []
