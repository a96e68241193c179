"""`harp measure` counts what each line costs, exactly, and `harp analyze --profile` uses
the counts. Every program runs in its own process, as a user runs it."""

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import nbformat
import pytest

from harp_ir.cli import harp

HARP = [sys.executable, "-m", "harp_ir.cli.harp"]


def measure(tmp_path: Path, source: str, *options: str, name: str = "prog.py",
            args: tuple = ()) -> tuple[dict, subprocess.CompletedProcess]:
    program = tmp_path / name
    if name.endswith(".py"):
        program.write_text(textwrap.dedent(source))
    profile = tmp_path / "profile.json"
    run = subprocess.run([*HARP, "measure", "-o", str(profile), *options, "--", "python",
                          str(program), *args], capture_output=True, text=True,
                         cwd=tmp_path, timeout=300)
    return json.loads(profile.read_text()), run


def at(profile: dict, line: int, cell: int | None = None) -> dict:
    """The counts of one line, with its run count as `runs`."""
    for entry in profile["lines"]:
        if entry["line"] == line and entry["cell"] == cell:
            return {"runs": entry["runs"], **entry["counts"]}
    return {"runs": 0}


def loop(profile: dict, line: int) -> tuple[int, int]:
    found = [(e["entries"], e["iterations"]) for e in profile["loops"] if e["line"] == line]
    return found[0] if found else (0, 0)


TORCH = """\
import numpy as np
import torch

def log(loss):
    return loss.item()

model = torch.nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.ones(12, 3)),
                                   batch_size=4, shuffle=True)
for epoch in range(2):
    for (x,) in data:
        x = x.to("cuda" if torch.cuda.is_available() else torch.device("cpu"))
        noise = torch.from_numpy(np.zeros((4, 1), np.float32))
        loss = (model(x) + noise).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        v = log(loss)
        if v > 1e9:
            print(loss.tolist())
    print(float(loss), loss.detach().cpu().numpy())
"""


def test_torch_counts_per_line_loop_and_helper(tmp_path):
    profile, run = measure(tmp_path, TORCH)
    assert run.returncode == 0, run.stderr
    assert profile["status"] == "exited" and profile["frameworks"] == ["torch"]
    assert loop(profile, 11) == (1, 2) and loop(profile, 12) == (2, 6)
    assert at(profile, 12)["batches"] == 6  # 3 batches per epoch (the end is none)
    assert "sync" not in at(profile, 12)  # the sampler's own `.item()` is the library's
    assert at(profile, 13)["to_device"] == 6
    assert at(profile, 14)["host_tensor"] == 6
    assert at(profile, 17)["backward"] == 6
    assert at(profile, 5) == {"runs": 6, "sync": 6, "ops": 6}  # in the helper, not line 19
    assert at(profile, 19)["runs"] == 6 and "sync" not in at(profile, 19)
    assert at(profile, 20)["runs"] == 6 and at(profile, 21)["runs"] == 0
    assert at(profile, 22)["sync"] == 2 and at(profile, 22)["to_host"] == 4
    assert at(profile, 15)["ops"] > 0
    line12 = next(e for e in profile["lines"] if e["line"] == 12)
    assert line12["loops"] == [12, 11] and line12["workers"] == 0
    assert "prog.py:5" in run.stderr  # the table


def test_steps_stop_after_iterations_of_the_step_loop(tmp_path):
    profile, run = measure(tmp_path, TORCH, "--steps", "4")
    assert run.returncode == 0, run.stderr
    assert profile["status"] == "stopped"
    assert profile["step_loop"] == {"file": "prog.py", "line": 12}
    assert loop(profile, 12)[1] == 4
    assert at(profile, 17)["backward"] == 4 and at(profile, 15)["runs"] == 4
    assert "stopped" in run.stderr


def test_program_errors_and_exit_status_are_kept(tmp_path):
    profile, run = measure(tmp_path, """\
        import sys
        for i in range(3):
            pass
        sys.exit(3)
        """)
    assert run.returncode == 3 and profile["status"] == "exited"
    assert profile["exit_status"] == 3 and loop(profile, 2) == (1, 3)
    profile, run = measure(tmp_path, "x = 1\nraise ValueError('bad input')\n")
    assert run.returncode == 1 and profile["status"] == "error"
    assert profile["error"] == "ValueError: bad input"
    assert "Traceback" in run.stderr  # the program's own traceback, as python shows it


def test_arguments_reach_the_program(tmp_path):
    profile, run = measure(tmp_path, """\
        import sys
        for a in sys.argv[1:]:
            print(a)
        """, args=("x", "y"))
    assert run.stdout.split() == ["x", "y"] and loop(profile, 2) == (1, 2)


def test_bad_commands_are_clear_errors(tmp_path, capsys):
    assert harp.main(["measure", "--", "python", str(tmp_path / "missing.py")]) == 2
    assert "missing.py" in capsys.readouterr().err
    assert harp.main(["measure"]) == 2
    assert "no program" in capsys.readouterr().err
    assert harp.main(["measure", "--steps", "0", "--", str(tmp_path / "x.py")]) == 2


def test_tf2_traces_eager_ops_tapes_and_keras(tmp_path):
    profile, run = measure(tmp_path, """\
        import tensorflow as tf

        @tf.function
        def scale(x, n):
            return x * n

        model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        x = tf.ones((4, 3))
        for step in range(3):
            y = scale(x, step)
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(model(x))
            grads = tape.gradient(loss, model.trainable_variables)
            z = x + 1.0
            model.predict(x, verbose=0)
        """)
    assert run.returncode == 0, run.stderr
    assert at(profile, 10)["traces"] == 3  # a new Python number traces again
    [function] = profile["functions"]
    assert function["name"] == "scale" and function["line"] == 3
    assert function["traces"] == 3 and function["retraces"] == ["`n` 0 -> 1", "`n` 1 -> 2"]
    assert at(profile, 13)["backward"] == 3
    assert at(profile, 14)["ops"] == 3  # one AddV2 per iteration
    assert at(profile, 15)["keras_calls"] == 3


@pytest.mark.skipif(not __import__("torch").cuda.is_available(),
                    reason="the device's own sync count needs a CUDA device")
def test_device_syncs_are_counted_by_the_device(tmp_path):
    profile, run = measure(tmp_path, """\
        import torch
        x = torch.ones(4, device="cuda")
        for i in range(5):
            v = (x * i).sum().item()
        """)
    assert run.returncode == 0, run.stderr
    assert at(profile, 4)["sync"] == 5 and at(profile, 4)["device_sync"] >= 5
    assert at(profile, 4)["wait_us"] > 0
    assert "synchronizing CUDA operation" not in run.stderr


def test_keras_batches_are_charged_to_the_users_call(tmp_path):
    profile, run = measure(tmp_path, """\
        import numpy as np
        import tensorflow as tf

        x = np.ones((8, 3), np.float32)
        y = np.ones((8, 1), np.float32)
        model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1)])
        model.compile(optimizer="sgd", loss="mse")
        model.fit(x, y, batch_size=2, epochs=2, verbose=0, validation_data=(x, y))
        for i in range(3):
            model.predict(x, batch_size=4, verbose=0)
        model.evaluate(x, y, batch_size=8, verbose=0, callbacks=[])
        model.train_on_batch(x, y)
        """)
    assert run.returncode == 0, run.stderr
    # 4 training and 4 validation batches per epoch; fit's own evaluate is not a call
    assert at(profile, 8)["keras_calls"] == 1 and at(profile, 8)["keras_batches"] == 16
    assert at(profile, 10)["keras_calls"] == 3 and at(profile, 10)["keras_batches"] == 6
    assert at(profile, 11)["keras_batches"] == 1  # the user's own callbacks list is kept
    assert at(profile, 12)["keras_calls"] == 1 and "keras_batches" not in at(profile, 12)
    assert "backward" not in at(profile, 8)  # fit's tape is traced, not run eagerly


def test_autograd_graphs_kept_across_iterations(tmp_path):
    profile, run = measure(tmp_path, """\
        import torch

        def accumulate(total, loss):
            return total + loss

        w = torch.ones(3, requires_grad=True)
        total, kept, losses, fine = 0, 0, [], 0.0
        for i in range(10):
            loss = (w * i).sum()
            loss.backward()
            total += loss
            losses.append(loss * 2)
            kept = accumulate(kept, loss)
            fine += loss.item()
            last = loss
            with torch.no_grad():
                safe = loss * 3
        print(float(total), fine)
        for episode in range(3):  # a rollout keeps its graphs for the backward after it
            log_probs = []
            for t in range(5):
                log_probs.append((w * t).sum())
            torch.stack(log_probs).sum().backward()
        """)
    assert run.returncode == 0, run.stderr
    assert at(profile, 11)["graphs_kept"] == 9  # in place: iterations 2..10 extend it
    assert at(profile, 4)["graphs_kept"] == 9  # `total + loss` in a helper the loop calls
    assert at(profile, 12)["graphs_kept"] == 8  # the list holds every one
    for line in (9, 10, 14, 15, 17, 22):  # let go in its iteration, no graph, or needed
        assert "graphs_kept" not in at(profile, line), line


def test_tf1_graph_growth_and_session_runs(tmp_path):
    profile, run = measure(tmp_path, """\
        import numpy as np
        import tensorflow as tf
        tf.compat.v1.disable_eager_execution()
        x = tf.compat.v1.placeholder(tf.float32, [None, 3])
        y = tf.reduce_sum(x)
        with tf.compat.v1.Session() as sess:
            for i in range(4):
                z = y * 2
                sess.run(z, feed_dict={x: np.ones((2, 3), np.float32)})
        """, "--steps", "2")
    assert run.returncode == 0, run.stderr
    assert profile["status"] == "stopped" and loop(profile, 7)[1] == 2
    assert at(profile, 8)["graph_ops"] == 4  # a Const and a Mul per iteration
    assert at(profile, 9)["session_run"] == 2 and at(profile, 9)["fed_bytes"] == 48


def test_notebook_counts_go_to_cells(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# a notebook"),
                nbformat.v4.new_code_cell("%matplotlib inline\nimport torch\n"
                                          "t = torch.ones(2)"),
                nbformat.v4.new_code_cell("for i in range(5):\n    s = t.sum().item()")]
    nbformat.write(nb, tmp_path / "nb.ipynb")
    profile, run = measure(tmp_path, "", name="nb.ipynb")
    assert run.returncode == 0, run.stderr
    assert at(profile, 2, cell=3)["sync"] == 5
    assert [(e["cell"], e["line"], e["iterations"]) for e in profile["loops"]] == [(3, 1, 5)]


# -- harp analyze --profile -------------------------------------------------------------

TRAIN = """\
import torch

model = torch.nn.Linear(3, 1).cuda() if torch.cuda.is_available() else torch.nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = [torch.randn(8, 3) for _ in range(150)]
total = 0.0
for step, x in enumerate(data):
    loss = model(x).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    total += loss.item()
    if step % 100 == 0:
        print(loss.item())
    for k in range(2):
        total += loss.item()
print(total)
"""


def analyze(tmp_path, *options) -> dict:
    run = subprocess.run([*HARP, "analyze", "--no-cache", "--output-format", "json",
                          *options, str(tmp_path / "prog.py")], capture_output=True,
                         text=True, cwd=tmp_path, timeout=300)
    assert run.returncode in (0, 1), run.stderr
    return json.loads(run.stdout)


def test_profile_settles_assumptions_and_ranks(tmp_path):
    profile, run = measure(tmp_path, TRAIN)
    assert run.returncode == 0, run.stderr
    without = analyze(tmp_path, "--level", "aggressive")
    report = analyze(tmp_path, "--level", "aggressive", "--profile",
                     str(tmp_path / "profile.json"))
    lines = [h["span"]["line"] for h in report["hints"]]
    # the print under `step % 100 == 0` ran twice in 150 iterations: not every iteration
    assert 14 in [h["span"]["line"] for h in without["hints"]] and 14 not in lines
    by_line = {h["span"]["line"]: h for h in report["hints"]}
    item = by_line[12]
    assert item["measured"].startswith("line 12 ran 150 times, 150 waits on the device")
    runs = next(a for a in item["assumptions"] if a["kind"] == "loop-runs")
    assert runs["status"] == "confirmed" and "150 iterations" in runs["reason"]
    # 300 waits in an inner loop of 2 rank first: the loop is as busy as the step loop
    assert lines[0] == 16
    hot = next(a for a in by_line[16]["assumptions"] if a["kind"] == "hot-loop")
    assert hot["status"] == "confirmed" and "300 iterations" in hot["reason"]
    assert report["measured_no_hint"] == [] or all(
        r["line"] not in lines for r in report["measured_no_hint"])


def test_profile_lists_costly_lines_without_a_hint(tmp_path):
    # a sync under a test in a helper: harp attributes to the caller's loop only a helper's
    # unconditional sync, so this one has no hint, but the run counts its waits
    source = TRAIN.replace("        total += loss.item()", "        total += helper(loss)")
    source = ("def helper(t):\n    if t is not None:\n        return t.item() + 0\n"
              "    return 0.0\n\n\n" + source)
    measure(tmp_path, source)
    report = analyze(tmp_path, "--profile", str(tmp_path / "profile.json"),
                     "--select", "HARP404")
    [row] = report["measured_no_hint"]
    assert (row["line"], row["counts"]) == (3, {"sync": 300})
    assert row["what"] == "ran 300 times: 300 waits on the device"


def test_profile_confirms_and_lists_graphs_kept_across_iterations(tmp_path):
    source = """\
        import torch
        model = torch.nn.Linear(2, 1)
        opt = torch.optim.SGD(model.parameters(), lr=0.01)
        running = 0
        for step in range(120):
            loss = model(torch.ones(4, 2)).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            running = running + loss
        print(float(running) > 0)
        """
    measure(tmp_path, source)
    report = analyze(tmp_path, "--profile", str(tmp_path / "profile.json"))
    [hint] = [h for h in report["hints"] if h["id"] == "HARP504"]
    assert hint["span"]["line"] == 10
    assert "119 iterations that kept an autograd graph from an earlier one" in \
        hint["measured"]
    # a list of losses: the graphs made on line 6 stay alive, which no hint is on
    measure(tmp_path, source.replace("running = running + loss", "running.append(loss)")
            .replace("running = 0", "running = []").replace("float(running)", "len(running)"))
    report = analyze(tmp_path, "--profile", str(tmp_path / "profile.json"))
    rows = {r["line"]: r for r in report["measured_no_hint"]}
    assert rows[6]["counts"] == {"graphs_kept": 118}


def test_a_bad_profile_is_a_clear_error(tmp_path, capsys):
    (tmp_path / "prog.py").write_text("x = 1\n")
    bad = tmp_path / "p.json"
    bad.write_text('{"harp_measure": 1, "status": "exited", "lines": [{"line": 1}]}')
    assert harp.main(["analyze", str(tmp_path / "prog.py"), "--profile", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "p.json: not a harp measure profile: `lines.0.file`" in err
    bad.write_text("not json")
    assert harp.main(["analyze", str(tmp_path / "prog.py"), "--profile", str(bad)]) == 2
    assert "cannot read the profile" in capsys.readouterr().err


def test_lines_run_by_a_child_process_are_not_denied(tmp_path):
    (tmp_path / "prog.py").write_text(textwrap.dedent("""\
        import multiprocessing
        import torch

        def work(n):
            t = torch.ones(3).to("cuda" if torch.cuda.is_available() else "cpu")
            total = 0.0
            for i in range(n):
                total += (t * i).sum().item()
            print(total)

        if __name__ == "__main__":
            child = multiprocessing.Process(target=work, args=(200,))
            child.start()
            child.join()
        """))
    profile, run = measure(tmp_path, (tmp_path / "prog.py").read_text())
    assert run.returncode == 0 and profile["processes"] == 1
    assert at(profile, 8)["runs"] == 0  # it ran, in the child
    report = analyze(tmp_path, "--level", "aggressive", "--profile",
                     str(tmp_path / "profile.json"))
    assert 8 in [h["span"]["line"] for h in report["hints"]]


@pytest.mark.parametrize("options", [(), ("--output-format", "full")])
def test_text_output_shows_what_was_measured(tmp_path, options):
    measure(tmp_path, TRAIN)
    run = subprocess.run([*HARP, "analyze", "--no-cache", "--level", "aggressive",
                          "--profile", "profile.json", *options, "prog.py"],
                         capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert "measured: line 12 ran 150 times, 150 waits on the device" in run.stdout
