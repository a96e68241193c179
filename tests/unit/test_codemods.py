"""Codemod fixtures (name.in.py -> name.out.py), real runs of both versions, idempotence,
and the guarantees of --apply."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from harp_ir import codemods
from harp_ir.cli import harp
from harp_ir.feedback import Feedback
from harp_ir.refactor import refactor_source, write_atomically
from harp_ir.rules import Fix

FIXTURES = Path(__file__).resolve().parents[1] / "codemods"
PAIRS = sorted(p.name.removesuffix(".in.py") for p in FIXTURES.glob("*.in.py"))


def refactor(ctx_source, name="f.py"):
    """Fixtures named `*_unsafe` show a fix that needs --unsafe-fixes."""
    return refactor_source(ctx_source, Path(name), Feedback(), unsafe="_unsafe" in name)


@pytest.mark.parametrize("name", PAIRS)
def test_fixture(ctx, name):
    source = (FIXTURES / f"{name}.in.py").read_text()
    outcome = refactor(source, f"{name}.py")
    assert outcome.source == (FIXTURES / f"{name}.out.py").read_text()
    if name.endswith("_declines"):
        assert outcome.applied == [] and outcome.declined, "a decline must say why"


@pytest.mark.parametrize("name", PAIRS)
def test_fix_is_idempotent(ctx, name):
    once = refactor((FIXTURES / f"{name}.in.py").read_text(), name).source
    assert refactor(once, name).source == once


#: runs a TF1 program written `import tensorflow as tf` (fixtures named `*_tf1*`) under
#: TensorFlow 2, with `tensorflow` bound to its compatibility layer in graph mode
TF1_COMPAT = ("import sys, tensorflow; v1 = tensorflow.compat.v1; v1.disable_eager_execution();"
              " sys.modules['tensorflow'] = v1; path = sys.argv[1]; sys.argv = sys.argv[1:];"
              " exec(compile(open(path).read(), path, 'exec'), {'__name__': '__main__'})")


def run(path: Path) -> list[str]:
    command = [sys.executable, "-c", TF1_COMPAT, str(path)] if "_tf1" in path.name else \
        [sys.executable, str(path)]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-1500:]
    return result.stdout.split()


def same(a: str, b: str) -> bool:
    try:
        return abs(float(a) - float(b)) <= 1e-5 * max(1.0, abs(float(a)))
    except ValueError:
        return a == b


@pytest.mark.parametrize("name", [n for n in PAIRS if not n.endswith("_declines")])
def test_original_and_rewritten_programs_compute_the_same(name, tmp_path):
    before = run(FIXTURES / f"{name}.in.py")
    after = run(FIXTURES / f"{name}.out.py")
    assert len(before) == len(after) and all(map(same, before, after)), (before, after)


def test_unsafe_fix_needs_the_flag(ctx):
    src = ("import torch\nmodel = torch.nn.Linear(2, 2)\nfor x in xs:\n"
           "    log(model(x))\n")  # log() could run backward: medium risk
    outcome = refactor(src)
    assert outcome.source == src
    assert "--unsafe-fixes" in outcome.declined[0][1]
    fixed = refactor_source(src, Path("f.py"), Feedback(), unsafe=True)
    assert "with torch.inference_mode():" in fixed.source


def test_apply_rewrites_in_place_and_reanalysis_is_clean(tmp_path, capsys):
    path = tmp_path / "train.py"
    path.write_text((FIXTURES / "transfer_hoist.in.py").read_text())
    assert harp.main(["refactor", "--apply", str(path)]) == 0
    assert path.read_text() == (FIXTURES / "transfer_hoist.out.py").read_text()
    capsys.readouterr()
    harp.main(["analyze", "--format", "json", "--select", "HARP202", str(path)])
    assert '"hints": []' in capsys.readouterr().out


def test_diff_is_printed_without_apply(tmp_path, capsys):
    path = tmp_path / "train.py"
    original = (FIXTURES / "concat_torch.in.py").read_text()
    path.write_text(original)
    assert harp.main(["refactor", str(path)]) == 0
    out = capsys.readouterr().out
    assert "-    out = torch.cat([out, row], dim=0)" in out and "(safe fix)" in out
    assert path.read_text() == original


def test_no_half_written_file(tmp_path, monkeypatch):
    path = tmp_path / "f.py"
    path.write_text("original\n")

    def boom(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError):
        write_atomically(path, b"new\n")
    assert path.read_text() == "original\n"
    assert [p.name for p in tmp_path.iterdir()] == ["f.py"]  # no temporary left behind


def test_a_rewrite_that_does_not_parse_is_never_applied(ctx, tmp_path, monkeypatch):
    import libcst as cst

    def broken(module, positions, hint):
        # a module that prints as `def`, which is not Python
        return cst.parse_module("x = 1\n").with_changes(
            body=[cst.SimpleStatementLine([cst.Expr(cst.Name("def"))])])

    monkeypatch.setattr(codemods, "fix_for", lambda hint_id: Fix(broken, "safe", "-", "-"))
    src = (FIXTURES / "concat_torch.in.py").read_text()
    outcome = refactor(src)
    assert outcome.source == src
    assert any("did not parse" in reason for _, reason in outcome.declined)


def test_a_name_rebound_by_unpacking_is_not_a_number(ctx):
    src = ("import torch\nx = torch.randn(5)\nscale = 2.0\nscale, k = torch.ones(5), 1\n"
           "out = torch.zeros(5)\nfor i in range(len(x)):\n    out[i] = x[i] * scale\n")
    outcome = refactor(src)
    assert outcome.source == src
    assert any("`scale` is a number" in reason for _, reason in outcome.declined)


@pytest.mark.parametrize("name", sorted(p.name.removesuffix(".in.py") for p in
                                        (FIXTURES / "aggressive").glob("*.in.py")))
def test_aggressive_level_fixture(ctx, name, tmp_path):
    """Fixes of hints shown only at `--level aggressive` (an agent's per-step forward whose
    outputs end on the host, a small host draw of noise): none at the default level;
    rewritten as the .out.py shows (`*_unsafe` with --unsafe-fixes, `*_declines` with the
    reason), and both versions compute the same."""
    folder = FIXTURES / "aggressive"
    source = (folder / f"{name}.in.py").read_text()
    unsafe = "_unsafe" in name
    assert refactor_source(source, Path(f"{name}.py"), Feedback(), unsafe=unsafe).applied == []
    outcome = refactor_source(source, Path(f"{name}.py"), Feedback("aggressive"),
                              unsafe=unsafe)
    assert outcome.source == (folder / f"{name}.out.py").read_text()
    if name.endswith("_declines"):
        assert outcome.applied == [] and outcome.declined, "a decline must say why"
        return
    before, after = run(folder / f"{name}.in.py"), run(folder / f"{name}.out.py")
    assert len(before) == len(after) and all(map(same, before, after)), (before, after)


def test_a_large_buffer_moved_by_cuda_is_made_on_the_device(ctx):
    """`.cuda()` names no argument to prove, and a shape of a million numbers rests on no
    step-share speculation: the hint is still the made-on-host form, fixed with
    `device="cuda"` (it was sent to the loop hoist, which declined)."""
    source = (FIXTURES / "transfer_factory_device.in.py").read_text().replace(
        "dtype=torch.float64).to(device)", "dtype=torch.float64).cuda()")
    fixed = refactor(source, "cuda_buffer.py").source
    assert 'torch.zeros(2, 1000, 500, dtype=torch.float64, device="cuda")' in fixed


def test_a_step_method_that_samples_python_state_is_not_compiled_safely(ctx):
    """Decorating an agent's `learn` with `@tf.function` would bake one sampled batch and
    one counter value into the graph (a trace keeps the Python values it read): the fix
    needs `--unsafe-fixes`, and says why."""
    src = '''import numpy as np
import tensorflow as tf


class Memory:
    def __init__(self):
        self.count = 0
        self.states = np.zeros((100, 4), dtype=np.float32)

    def sample(self):
        return self.states[np.random.choice(100, 8)]


class Agent:
    def __init__(self):
        self.memory = Memory()
        self.net = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        self.opt = tf.keras.optimizers.SGD(0.01)

    def learn(self):
        if self.memory.count < 8:
            return
        states = self.memory.sample()
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(self.net(states) ** 2)
        grads = tape.gradient(loss, self.net.trainable_variables)
        self.opt.apply_gradients(zip(grads, self.net.trainable_variables))


agent = Agent()
for step in range(100):
    agent.memory.count += 1
    agent.learn()
'''
    outcome = refactor(src)
    assert outcome.source == src
    [(hint, reason)] = [(h, r) for h, r in outcome.declined if h.id == "HARP103"]
    assert "--unsafe-fixes" in reason and "Python state of its object" in reason


def test_eager_step_drawing_tf_random_numbers_needs_the_flag(ctx):
    """A traced step still draws new numbers on every call, but from another stream than
    the eager step: a seeded program's numbers change, so the fix is opt-in. The draw is
    found in the Keras model's `call`, which the step runs."""
    src = ("import tensorflow as tf\n\n\nclass Noisy(tf.keras.Model):\n"
           "    def __init__(self):\n        super().__init__()\n"
           "        self.fc = tf.keras.layers.Dense(1)\n\n"
           "    def call(self, x):\n        return self.fc(x + tf.random.normal(tf.shape(x)))\n\n\n"
           "model = Noisy()\nopt = tf.keras.optimizers.SGD(0.1)\n"
           "for x in [tf.ones((4, 2))] * 10:\n"
           "    with tf.GradientTape() as tape:\n"
           "        loss = tf.reduce_mean(model(x))\n"
           "    grads = tape.gradient(loss, model.trainable_variables)\n"
           "    opt.apply_gradients(zip(grads, model.trainable_variables))\n")
    outcome = refactor(src)
    assert outcome.source == src
    assert "--unsafe-fixes" in outcome.declined[0][1] and \
        "tf.random.normal" in outcome.declined[0][1]
    fixed = refactor_source(src, Path("f.py"), Feedback(), unsafe=True)
    assert "@tf.function" in fixed.source


def test_eager_step_handing_its_tensors_to_numpy_declines_even_when_asked(ctx):
    """A step that returns `np.array(loss)` (or takes `np.amax` of its target network's
    output) reads its tensors on the host: traced, they have no value for NumPy to read,
    so decorating it would break the program. The hint names the read; the fix declines,
    with `--unsafe-fixes` too."""
    src = ("import numpy as np\nimport tensorflow as tf\n\n"
           "model = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n"
           "opt = tf.keras.optimizers.SGD(0.1)\n\n\n"
           "def train_model(x):\n"
           "    with tf.GradientTape() as tape:\n"
           "        loss = tf.reduce_mean(model(x))\n"
           "    grads = tape.gradient(loss, model.trainable_variables)\n"
           "    opt.apply_gradients(zip(grads, model.trainable_variables))\n"
           "    return np.array(loss)\n\n\n"
           "for x in [tf.ones((4, 2))] * 200:\n"
           "    train_model(x)\n")
    outcome = refactor(src)
    assert outcome.source == src
    [(hint, reason)] = [(h, r) for h, r in outcome.declined if h.id == "HARP103"]
    assert "`np.array(...)` takes a value the step computes" in reason
    assert "np.array" in hint.message
    assert refactor_source(src, Path("f.py"), Feedback(), unsafe=True).source == src
