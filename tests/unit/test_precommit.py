"""The hooks of `.pre-commit-hooks.yaml`, run by pre-commit itself on a scratch
repository: analyze reports the hint and fails the commit, refactor fixes the file.

pre-commit would install harp, with torch and TensorFlow, into a hook environment of its
own first (minutes); here each hook runs as the same hook with `language: system`, the
harp of this environment, so what is tested is the hook's entry, file types and serial
run, driven by pre-commit."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
HOT = ("import torch\nmodel = torch.nn.Linear(2, 2).cuda()\n"
       "opt = torch.optim.SGD(model.parameters(), lr=0.1)\ntotal = 0.0\n"
       "for x in loader:\n    loss = model(x).sum()\n    loss.backward()\n"
       "    for p in model.parameters():\n        total += p.grad.norm().item()\n")


@pytest.fixture
def scratch(tmp_path):
    if shutil.which("git") is None:
        pytest.fail("git is needed to run pre-commit")
    repo = tmp_path / "repo"
    repo.mkdir()
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    harp = str(Path(sys.executable).parent / "harp")
    for hook in hooks:
        assert hook["language"] == "python" and hook["entry"].startswith("harp ")
        hook["language"] = "system"
        hook["entry"] = harp + hook["entry"].removeprefix("harp")
    (repo / ".pre-commit-config.yaml").write_text(
        yaml.safe_dump({"repos": [{"repo": "local", "hooks": hooks}]}))
    (repo / "train.py").write_text(HOT)
    (repo / "notes.md").write_text("for x in loader: total += loss.item()\n")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"),
           "HARP_CACHE_DIR": str(tmp_path / "cache"), "GIT_CONFIG_NOSYSTEM": "1",
           "HOME": str(tmp_path)}
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True, env=env)
    subprocess.run(["git", "add", "-A"], cwd=repo, check=True, env=env)
    return repo, env


def pre_commit(repo, env, hook):
    return subprocess.run([sys.executable, "-m", "pre_commit", "run", hook, "--all-files"],
                          cwd=repo, env=env, capture_output=True, text=True, timeout=600)


def test_harp_analyze_hook_reports_and_fails(scratch):
    repo, env = scratch
    done = pre_commit(repo, env, "harp-analyze")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "train.py:9:18: HARP201 host-sync-in-loop" in done.stdout
    assert "notes.md" not in done.stdout  # only Python files and notebooks go to harp


def test_harp_refactor_hook_fixes_the_file(scratch):
    repo, env = scratch
    done = pre_commit(repo, env, "harp-refactor")
    assert done.returncode == 1, done.stdout + done.stderr  # files were modified
    assert "files were modified by this hook" in done.stdout
    assert "total += p.grad.norm().item()" not in (repo / "train.py").read_text()
    assert pre_commit(repo, env, "harp-analyze").returncode == 0
