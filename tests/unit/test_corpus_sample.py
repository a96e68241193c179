"""A sample of the robustness corpus (bench/corpus_check.py runs all of it): real library
sources lower and verify with no crash."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import corpus_check  # noqa: E402


def test_sample_of_installed_torch_and_tensorflow_sources(capsys):
    status = corpus_check.main(["torch", "tensorflow", "--sample", "24", "--jobs", "1",
                                "--seed", "7"])
    out = capsys.readouterr().out
    assert status == 0, out
    assert "24 files" in out and "0 crashes, 0 verifier failures" in out
