"""bench/compare_speed.py runs harp from the tree it is given, not from the editable install."""

import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))

import compare_speed  # noqa: E402


def test_a_run_from_this_checkout_analyses_a_program(tmp_path):
    program = tmp_path / "loop.py"
    program.write_text("import torch\nfor i in range(1000):\n    x = torch.zeros(3)\n")
    seconds, status = compare_speed.timed_run(BENCH.parent, [str(program)])
    assert status == 0 and seconds > 0


def test_a_tree_without_harp_is_refused(tmp_path):
    (tmp_path / "harp_ir").mkdir()  # a package that is not harp: its __init__ is missing
    program = tmp_path / "loop.py"
    program.write_text("x = 1\n")
    with pytest.raises(SystemExit):
        compare_speed.timed_run(tmp_path, [str(program)])
