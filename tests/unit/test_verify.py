"""`harp refactor --verify CMD`: real runs decide which fixes are kept."""

import shutil
import signal
import sys
import time
from pathlib import Path

import pytest

from harp_ir.cli import harp
from harp_ir.verify import Run, bisect_fixes, difference, measured, run_command

AGGRESSIVE = ("--level", "aggressive")  # one `.item()` a step: HARP201 is shown there
TESTS = Path(__file__).resolve().parents[1]


def _project(tmp_path, monkeypatch):
    """A project with a fix that keeps behaviour (HARP201, one `.item()` a step: the
    aggressive level's, which every run here asks for) and one that changes it (HARP502
    with momentum, an unsafe fix)."""
    shutil.copy(TESTS / "codemods" / "aggressive" / "host_sync_item.in.py", tmp_path / "good.py")
    shutil.copy(TESTS / "twists" / "zero_grad_momentum.py", tmp_path / "bad.py")
    monkeypatch.chdir(tmp_path)
    return f"{sys.executable} good.py && {sys.executable} bad.py"


def test_verify_drops_the_fix_that_changes_output_and_keeps_the_good_one(
        tmp_path, monkeypatch, capsys):
    command = _project(tmp_path, monkeypatch)
    before = {p.name: p.read_text() for p in tmp_path.iterdir()}
    status = harp.main(["refactor", *AGGRESSIVE, "--unsafe-fixes", "--verify", command, "."])
    out, err = capsys.readouterr()
    assert status == 0, err
    assert "bad.py:" in err and "HARP502 dropped: the run changed: output line 2" in err
    assert "good.py:10:16: HARP201 kept: the run behaves the same" in err
    assert "the run confirmed: tensor (loss)" in err
    assert "harp: verify: unchanged program: exit 0," in err
    assert "harp: verify: with 1 fix: exit 0," in err and "x)" in err
    assert "+    running += loss.detach().double()" in out and "zero_grad()" not in out
    assert "counts not measured: CMD is not one Python program" in err  # two programs
    assert {p.name: p.read_text() for p in tmp_path.iterdir()} == before  # untouched


def test_verify_counts_what_the_kept_fixes_remove(tmp_path, monkeypatch, capsys):
    _project(tmp_path, monkeypatch)
    assert harp.main(["refactor", *AGGRESSIVE, "--verify", f"{sys.executable} good.py",
                      "good.py"]) == 0
    err = capsys.readouterr().err
    # one `.item()` per iteration of the 5-batch loop becomes one after it
    assert "harp: verify: counted by harp measure, before -> after: sync 5 -> 1;" in err
    assert harp.main(["refactor", *AGGRESSIVE, "--verify", f"{sys.executable} good.py",
                      "--no-counts", "good.py"]) == 0
    assert "counted" not in capsys.readouterr().err


def test_only_one_python_program_is_measured():
    assert measured("python train.py --epochs 1", Path("p.json")) == (
        "python -m harp_ir.cli.harp measure --root . -o p.json -- train.py --epochs 1")
    assert "-- -m pytest -q" in measured("pytest -q", Path("p.json"))
    assert "-- -m pkg.train" in measured("python3.11 -m pkg.train", Path("p.json"))
    for command in ("python a.py && python b.py", "make test", "python -c 'print(1)'",
                    "python a.py | tee log", "python", "'unclosed"):
        assert measured(command, Path("p.json")) is None, command


def test_verify_with_apply_writes_only_the_kept_fixes(tmp_path, monkeypatch, capsys):
    command = _project(tmp_path, monkeypatch)
    bad = (tmp_path / "bad.py").read_text()
    assert harp.main(["refactor", *AGGRESSIVE, "--unsafe-fixes", "--apply", "--verify", command,
                      "."]) == 0
    assert "loss.detach().double()" in (tmp_path / "good.py").read_text()
    assert (tmp_path / "bad.py").read_text() == bad


def test_verify_refuses_a_command_that_fails_or_is_not_deterministic(
        tmp_path, monkeypatch, capsys):
    _project(tmp_path, monkeypatch)
    assert harp.main(["refactor", *AGGRESSIVE, "--verify", "exit 3", "good.py"]) == 2
    assert "CMD fails on the unchanged program (exit 3" in capsys.readouterr().err
    random = f"{sys.executable} -c 'import random; print(random.random())'"
    assert harp.main(["refactor", *AGGRESSIVE, "--verify", random, "good.py"]) == 2
    assert "two runs of the unchanged program differ" in capsys.readouterr().err


def test_verify_refuses_a_command_that_never_runs_the_program(
        tmp_path, monkeypatch, capsys):
    """`true` exits 0 and prints the same with or without the fixes: that confirms
    nothing. A file CMD does not run keeps its code; the files it runs are verified."""
    _project(tmp_path, monkeypatch)
    good, bad = (tmp_path / "good.py").read_text(), (tmp_path / "bad.py").read_text()
    assert harp.main(["refactor", *AGGRESSIVE, "--apply", "--verify", "true", "good.py"]) == 2
    assert "CMD does not run the files the fixes change" in capsys.readouterr().err
    assert harp.main(["refactor", *AGGRESSIVE, "--apply", "--unsafe-fixes", "--verify",
                      f"{sys.executable} good.py", "good.py", "bad.py"]) == 0
    err = capsys.readouterr().err
    assert "bad.py:1:1: warning: --verify: CMD does not run this file" in err
    assert (tmp_path / "bad.py").read_text() == bad
    assert (tmp_path / "good.py").read_text() != good and "HARP201 kept" in err


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0]
    except (FileNotFoundError, IndexError):
        return False
    return state not in "ZX"


def test_a_timed_out_command_leaves_nothing_running(tmp_path):
    run = run_command("sleep 60 & echo $!; wait", tmp_path, timeout=1)
    assert run.status == 124 and run.seconds < 30
    pid = int(run.stdout.split()[0])
    time.sleep(0.2)
    assert not _alive(pid)


def test_an_interrupted_command_leaves_nothing_running(tmp_path):
    def interrupt(*_):
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, 1.0)
    try:
        with pytest.raises(KeyboardInterrupt):
            run_command("sleep 60 & echo $! > pid; wait", tmp_path, timeout=60)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    time.sleep(0.2)
    assert not _alive(int((tmp_path / "pid").read_text()))


def run(stdout: str, status: int = 0) -> Run:
    return Run(status, stdout, "", 0.0)


def test_outputs_compare_numbers_within_tolerance_and_words_exactly():
    assert not difference(run("loss 0.1234567\n"), run("loss 0.1234568\n"), 1e-5, 1e-8)
    assert "output line 1" in difference(run("loss 0.12\n"), run("loss 0.13\n"), 1e-5, 1e-8)
    assert difference(run("float 1.0\n"), run("Tensor 1.0\n"), 1e-5, 1e-8)
    assert difference(run("[1, 2]\n"), run("[1, 2, 3]\n"), 1e-5, 1e-8)
    assert "exit status 0 became 1" in difference(run("x"), run("x", 1), 1e-5, 1e-8)
    assert "2 output lines became 1" in difference(run("a\nb\n"), run("a\n"), 1e-5, 1e-8)


def test_bisection_finds_each_bad_fix_and_keeps_the_rest():
    bad = {3, 7}
    calls = []

    def check(subset):
        calls.append(list(subset))
        return "changed" if bad & set(subset) else ""

    kept, dropped = bisect_fixes(list(range(10)), check)
    assert kept == [0, 1, 2, 4, 5, 6, 8, 9]
    assert [f for f, _ in dropped] == [3, 7]
    assert len(calls) < 10 * 2
