"""Issue #27's "one truth": what `harp analyze` promises (`fix: safe`) is what `harp
refactor` does, on every codemod fixture and across the files of one program."""

import json
from collections import Counter
from pathlib import Path

import pytest

from harp_ir.cli import harp

FIXTURES = sorted(p.name.removesuffix(".in.py")
                  for p in (Path(__file__).parents[1] / "codemods").glob("*.in.py"))


def _promised_and_done(path: Path, capsys) -> tuple[Counter, Counter]:
    harp.main(["analyze", "--no-config", "--no-cache", "--output-format", "json", str(path)])
    promised = Counter(h["id"] for h in json.loads(capsys.readouterr().out)["hints"]
                       if h["fix"] == "safe")
    harp.main(["refactor", "--no-config", "--output-format", "json", str(path)])
    report = json.loads(capsys.readouterr().out)
    done = Counter(a["id"] for f in report["files"] for a in f["applied"]
                   if a["safety"] == "safe")
    return promised, done


def _safe(path: Path, capsys) -> list[tuple[int, str]]:
    harp.main(["analyze", "--no-config", "--no-cache", "--output-format", "json", str(path)])
    return [(h["span"]["line"], h["id"]) for h in json.loads(capsys.readouterr().out)["hints"]
            if h["fix"] == "safe"]


@pytest.mark.parametrize("name", FIXTURES)
def test_analyze_promises_what_refactor_applies(name, tmp_path, capsys):
    """Every fix analyze calls safe, `refactor --apply` makes: none is left afterwards (one
    fix may take several hints with it: hoisting `(w_inv @ V).sum()` hoists `w_inv @ V`)."""
    source = Path(__file__).parents[1] / "codemods" / f"{name}.in.py"
    path = tmp_path / "program.py"
    path.write_bytes(source.read_bytes())
    promised = _safe(path, capsys)
    harp.main(["refactor", "--no-config", "--apply", "--output-format", "json", str(path)])
    report = json.loads(capsys.readouterr().out)
    applied = [a["id"] for f in report["files"] for a in f["applied"] if a["safety"] == "safe"]
    assert bool(applied) == bool(promised), f"promised {promised}, applied {applied}"
    assert _safe(path, capsys) == [], f"promised {promised}, applied {applied}"


def test_refactor_sees_the_program_analyze_sees(tmp_path, capsys):
    """A model made in another file of the program (a function returning a Keras model,
    chosen by a flag): analyze reported it as fixable, refactor, lowering the file alone,
    found no hint at all."""
    (tmp_path / "models.py").write_text(
        "import tensorflow as tf\n\n\n"
        "def detector(tiny=False):\n"
        "    inputs = tf.keras.Input(shape=(4,))\n"
        "    return tf.keras.Model(inputs, tf.keras.layers.Dense(1)(inputs))\n")
    (tmp_path / "detect.py").write_text(
        "import numpy as np\n"
        "from models import detector\n\n"
        "model = detector(tiny=True)\n"
        "for frame in np.random.rand(300, 4):\n"
        "    boxes = model.predict(np.expand_dims(frame, 0))\n")
    promised, done = _promised_and_done(tmp_path / "detect.py", capsys)
    assert promised == done == Counter({"HARP404": 1})


def test_a_declined_fix_is_not_promised(tmp_path, capsys):
    """The codemod declines (the accumulator is read by a handler the loop can raise
    into): analyze says there is no fix, as refactor does."""
    source = Path(__file__).parents[1] / "codemods" / "concat_read_by_handler_declines.in.py"
    path = tmp_path / "program.py"
    path.write_bytes(source.read_bytes())
    harp.main(["analyze", "--no-config", "--no-cache", "--level", "aggressive",
               "--output-format", "json", str(path)])
    hints = json.loads(capsys.readouterr().out)["hints"]
    assert [(h["id"], h["fix"]) for h in hints if h["id"] == "HARP402"] == [("HARP402", "none")]
