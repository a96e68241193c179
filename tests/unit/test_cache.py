"""The result cache of `harp analyze`: an unchanged program is not analysed again, and
any change that could change its hints (its files, a module it imports, a module that
appears where an import looked, harp itself, `--exclude`) is analysed again; settings
applied after the analysis (level, select) still apply; a corrupt entry is rebuilt."""

import json

import pytest

from harp_ir import cache as cache_module
from harp_ir import report
from harp_ir.cli import harp

TRAIN = ("import torch\nfrom helper import scale\nmodel = torch.nn.Linear(2, 2).cuda()\n"
         "opt = torch.optim.SGD(model.parameters(), lr=0.1)\ntotal = 0.0\n"
         "for x in loader:\n    loss = scale(model(x)).sum()\n    loss.backward()\n"
         "    for p in model.parameters():\n        total += p.grad.norm().item()\n")
HELPER = "def scale(t):\n    return t * 2\n"


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A two-file program, the cache beside it, and a count of the programs analysed."""
    (tmp_path / "train.py").write_text(TRAIN)
    (tmp_path / "helper.py").write_text(HELPER)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("HARP_CACHE_DIR", raising=False)
    analysed = []
    real = report.run_task

    def counting(task):
        analysed.append(sorted(p.name for p in task.targets))
        return real(task)

    monkeypatch.setattr(report, "run_task", counting)
    return tmp_path, analysed


def run(capsys, *args) -> tuple[int, str]:
    status = harp.main(["analyze", "--no-config", "-j", "1", *args])
    captured = capsys.readouterr()
    return status, captured.out


def test_an_unchanged_program_is_read_from_the_cache(project, capsys):
    root, analysed = project
    first = run(capsys, "train.py")
    second = run(capsys, "train.py")
    assert first == second and first[0] == 1 and "HARP201" in first[1]
    assert analysed == [["train.py"]]  # once
    assert (root / ".harp_cache" / ".gitignore").read_text().endswith("*\n")


@pytest.mark.parametrize("change", ["target", "imported", "appears", "harp", "exclude"])
def test_what_can_change_the_hints_is_analysed_again(project, capsys, monkeypatch, change):
    root, analysed = project
    args = ["."]
    run(capsys, *args)
    if change == "target":
        (root / "train.py").write_text(TRAIN.replace("total += p.grad.norm().item()", "pass"))
    elif change == "imported":  # a module of the project the program imports
        (root / "helper.py").write_text(HELPER + "\nx = 1\n")
        args = ["train.py"]
        run(capsys, *args)
        (root / "helper.py").write_text(HELPER + "\nx = 2\n")
    elif change == "appears":  # a module an import looked for and did not find
        (root / "train.py").write_text("import losses\n" + TRAIN)
        args = ["train.py"]
        run(capsys, *args)
        (root / "losses.py").write_text("x = 1\n")
    elif change == "harp":
        monkeypatch.setattr(cache_module, "harp_fingerprint", lambda: "another harp")
    else:
        args = [".", "--exclude", "helper.py"]
    before = len(analysed)
    status, out = run(capsys, *args)
    assert len(analysed) == before + 1, change
    if change == "target":
        assert status == 0 and out == ""


def test_settings_applied_after_the_analysis_still_apply_on_a_hit(project, capsys):
    _, analysed = project
    run(capsys, "train.py")
    assert run(capsys, "train.py", "--select", "HARP202") == (0, "")
    aggressive = run(capsys, "train.py", "--level", "aggressive")
    assert aggressive[0] == 1 and analysed == [["train.py"]]


def test_a_corrupt_entry_is_ignored_and_rebuilt(project, capsys):
    root, analysed = project
    expected = run(capsys, "train.py")
    [entry] = (root / ".harp_cache").rglob("*.json")
    for garbage in ("{not json", json.dumps({"format": 1, "hints": 3}), "[]", ""):
        entry.write_text(garbage)
        assert run(capsys, "train.py") == expected
        assert json.loads(entry.read_text())["format"] == cache_module.FORMAT
    assert len(analysed) == 5


def test_no_cache_reads_and_writes_nothing(project, capsys):
    root, analysed = project
    run(capsys, "--no-cache", "train.py")
    run(capsys, "--no-cache", "train.py")
    assert len(analysed) == 2 and not (root / ".harp_cache").exists()


def test_an_unwritable_cache_is_not_an_error(project, capsys):
    root, _ = project
    (root / "blocked").write_text("a file where the cache folder would be")
    assert run(capsys, "--cache-dir", "blocked/cache", "train.py")[0] == 1


def test_a_run_the_cache_answers_imports_no_analysis(project):
    """What makes a warm run fast: with every program in the cache, harp imports neither
    libcst, nbformat, the passes nor the torch dialect (a fresh process, as users run it)."""
    import subprocess
    import sys

    root, _ = project
    script = ("import sys, io, contextlib\nfrom harp_ir.cli import harp\n"
              "with contextlib.redirect_stdout(io.StringIO()):\n"
              "    status = harp.main(['analyze', '--no-config', 'train.py'])\n"
              "heavy = ['libcst', 'nbformat', 'harp_ir.passes', 'torch_mlir.dialects.torch']\n"
              "print(status, [m for m in heavy if m in sys.modules])\n")
    runs = [subprocess.run([sys.executable, "-c", script], cwd=root, capture_output=True,
                           text=True, timeout=300) for _ in range(2)]
    assert runs[0].stdout.split(" ", 1)[0] == "1" and "libcst" in runs[0].stdout  # a miss
    assert runs[1].stdout == "1 []\n", runs[1].stdout + runs[1].stderr
