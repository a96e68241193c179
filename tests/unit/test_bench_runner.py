"""The benchmark runner on two of its programs at a reduced size: harp refactors each, the
refactored program runs, and its output agrees with the original's (no timing asserted)."""

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"


def test_runner_refactors_and_outputs_agree(tmp_path):
    results = tmp_path / "results.json"
    done = subprocess.run(
        [sys.executable, str(BENCH / "run.py"), "torch_preprocess", "tf_retrace_schedule",
         "--runs", "1", "--scale", "0.05", "--json", str(results)],
        capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr[-2000:]
    report = json.loads(results.read_text())
    by_name = {p["program"]: p for p in report["programs"]}
    assert by_name["torch_preprocess"]["hints"] == ["HARP401"]
    assert by_name["tf_retrace_schedule"]["hints"] == ["HARP102"]
    assert all(p["outputs_agree"] and not p["error"] for p in by_name.values())
    assert "| torch_preprocess | pytorch |" in done.stdout


def test_outputs_that_differ_are_caught():
    sys.path.insert(0, str(BENCH))
    try:
        from run import same_output
    finally:
        sys.path.remove(str(BENCH))
    assert same_output("loss 0.123456\n", "loss 0.123457\n", 1e-3, 1e-4)
    assert not same_output("loss 0.12\n", "loss 0.15\n", 1e-3, 1e-4)
    assert not same_output("sizes [1, 2]\n", "sizes [1, 2, 3]\n", 1e-3, 1e-4)
