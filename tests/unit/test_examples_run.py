"""The bundled examples are real programs: they run with torch and TensorFlow."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name,expect", [("torch_train.py", "epoch 4: loss"),
                                         ("tf_eager.py", "final loss")])
def test_example_runs(name, expect):
    result = subprocess.run([sys.executable, str(ROOT / "examples" / name)],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    assert expect in result.stdout
