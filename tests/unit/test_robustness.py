"""Valid input never crashes harp and one bad file never stops a run: deep nesting,
encodings, odd file names, files named twice, FIFOs, Ctrl-C."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from harp_ir.cli import harp

HOT = ("import torch\nmodel = torch.nn.Linear(2, 2).cuda()\n"
       "opt = torch.optim.SGD(model.parameters(), lr=0.1)\ntotal = 0.0\n"
       "for x in loader:\n    loss = model(x).sum()\n    loss.backward()\n"
       "    for p in model.parameters():\n        total += p.grad.norm().item()\n")
HOT_LINE = 9  # a wait per parameter on every step


def analyze_json(capsys, *args) -> tuple[int, dict, str]:
    """Exit status, the JSON report, and its error lines with whatever went to stderr."""
    status = harp.main(["analyze", "--format", "json", "--no-config", *map(str, args)])
    captured = capsys.readouterr()
    out = json.loads(captured.out)
    return status, out, "\n".join(out["errors"]) + captured.err


DEEP = {
    "sum_10000_terms.py": "x = " + " + ".join(["1"] * 10000) + "\n",
    "sum_2900_terms_multiline.py": "x = (" + " +\n".join(["1"] * 2900) + ")\n",
    "elif_500.py": "x = 1\nif x == 0:\n    pass\n" + "".join(
        f"elif x == {i}:\n    pass\n" for i in range(1, 500)),
    "chain_300.py": "import torch\nx = torch.zeros(3)" + ".abs()" * 300 + "\n",
    "strings_1000.py": "s = (" + " ".join(['"a"'] * 1000) + ")\n",
}


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_pathological_files_do_not_stop_the_others(tmp_path, capsys, jobs):
    for name, text in DEEP.items():
        (tmp_path / name).write_text(text)
    (tmp_path / "train.py").write_text(HOT)
    status, out, err = analyze_json(capsys, "-j", jobs, tmp_path)
    assert [(h["span"]["file"].endswith("train.py"), h["span"]["line"])
            for h in out["hints"]] == [(True, HOT_LINE)]
    assert "Traceback" not in err
    # the one deeper than Python's own parser accepts is reported, by name, with its limit
    assert f"{tmp_path / 'sum_10000_terms.py'}:1:1: error: nested too deeply" in err
    assert status == 2  # an error beside the hints


def test_pep263_and_bom_sources_are_decoded_as_python_does(tmp_path, capsys):
    latin = tmp_path / "latin.py"
    latin.write_bytes(("# -*- coding: latin-1 -*-\n# caf\xe9\n" + HOT).encode("latin-1"))
    bom = tmp_path / "bom.py"
    bom.write_bytes(b"\xef\xbb\xbf" + HOT.encode())
    crlf = tmp_path / "crlf.py"
    crlf.write_bytes(HOT.replace("\n", "\r\n").encode())
    status, out, err = analyze_json(capsys, latin, bom, crlf)
    lines = sorted((Path(h["span"]["file"]).name, h["span"]["line"]) for h in out["hints"])
    assert lines == [("bom.py", HOT_LINE), ("crlf.py", HOT_LINE), ("latin.py", HOT_LINE + 2)]
    assert err == ""


@pytest.mark.parametrize("name", ["caf\u00e9.py", 'quote"d.py', "back\\slash.py",
                                  "with space.py"])
def test_any_file_name_keeps_its_hints(tmp_path, capsys, name):
    path = tmp_path / name
    path.write_text(HOT)
    status, out, _ = analyze_json(capsys, path)
    assert status == 1 and [h["span"]["file"] for h in out["hints"]] == [str(path)]


def test_a_file_named_twice_is_analysed_once(tmp_path, capsys, monkeypatch):
    (tmp_path / "train.py").write_text(HOT)
    monkeypatch.chdir(tmp_path)
    _, out, _ = analyze_json(capsys, "train.py", "./train.py", ".")
    assert len(out["hints"]) == 1


def test_a_fifo_is_not_read(tmp_path, capsys):
    fifo = tmp_path / "f.py"
    os.mkfifo(fifo)
    (tmp_path / "train.py").write_text(HOT)
    status, out, err = analyze_json(capsys, tmp_path, fifo)  # would block if opened
    assert len(out["hints"]) == 1 and f"{fifo}: error: not a regular file" in err
    assert status == 2


@pytest.mark.parametrize("presses", [1, 2])
def test_ctrl_c_prints_one_line_and_exits_130(tmp_path, presses):
    """Once or twice (a second Ctrl-C while the workers stop used to hang harp)."""
    for i in range(200):  # far more work than the wait: the signal lands mid-analysis
        (tmp_path / f"m{i}.py").write_text(HOT * 20)
    harp_bin = Path(sys.executable).with_name("harp")
    proc = subprocess.Popen([str(harp_bin), "analyze", "-j", "2", str(tmp_path)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(8)  # past start-up (imports) even on a loaded machine
    for _ in range(presses):
        proc.send_signal(signal.SIGINT)
        time.sleep(0.5)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and err == "harp: interrupted\n"


def test_gitignored_files_are_not_analysed(tmp_path, capsys):
    (tmp_path / ".gitignore").write_text("generated/\n*_pb2.py\n")
    for name in ("train.py", "generated/train.py", "model_pb2.py", "sub/train.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(HOT)
    (tmp_path / "sub" / ".gitignore").write_text("train.py\n")  # applies to sub/ only
    _, out, _ = analyze_json(capsys, tmp_path)
    assert [Path(h["span"]["file"]).relative_to(tmp_path).as_posix()
            for h in out["hints"]] == ["train.py"]


def test_config_exclude_joins_the_command_line(tmp_path, capsys):
    for name in ("train.py", "legacy/train.py", "scratch.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(HOT)
    (tmp_path / "pyproject.toml").write_text('[tool.harp]\nexclude = ["legacy/*"]\n')
    status = harp.main(["analyze", "--format", "json", "--exclude", "scratch.py",
                        str(tmp_path)])
    files = [Path(h["span"]["file"]).name for h in json.loads(capsys.readouterr().out)["hints"]]
    assert status == 1 and files == ["train.py"]


@pytest.mark.parametrize("source", [
    "def f(:\n    pass\n",
    "x = (1,\ny = 2\n",
    'print "hi", `x`\n',  # Python 2 beyond its print statements
    "if x\n    pass\n",
    "a = [1, 2\n\n\nb = 3\n",
    "class A:\npass\n",
    "x = " + "(" * 1000 + "1" + ")" * 1000 + "\n",
])
def test_syntax_errors_are_where_and_as_python_says(tmp_path, capsys, source):
    """The line, column and words of Python's own SyntaxError (what users see from
    `python file.py`), not libcst's parser state; nesting Python refuses is an error."""
    import ast

    with pytest.raises(SyntaxError) as python:
        ast.parse(source)
    path = tmp_path / "bad.py"
    path.write_text(source)
    status, out, errors = analyze_json(capsys, path)
    assert (status, out["hints"]) == (2, [])
    [line] = errors.splitlines()
    e = python.value
    assert line.startswith(f"{path}:{e.lineno}:{e.offset}: error: invalid syntax")
    assert e.msg in line


def test_a_file_over_the_size_limit_is_refused_by_name_and_the_others_analysed(
        tmp_path, capsys):
    from harp_ir.frontend.source import MAX_SOURCE_CHARS

    generated = tmp_path / "generated_pb2.py"
    generated.write_text("x = 1\n" * (MAX_SOURCE_CHARS // 6 + 1))
    (tmp_path / "train.py").write_text(HOT)
    status, out, err = analyze_json(capsys, "-j", "1", tmp_path)
    assert [h["span"]["line"] for h in out["hints"]] == [HOT_LINE]
    assert f"{generated}:1:1: error: {MAX_SOURCE_CHARS // 6 * 6 + 6:,} characters of source" \
        in err and "not analysed" in err
    assert status == 2


def test_repeated_runs_in_one_process_release_their_mlir_contexts(tmp_path, capsys):
    """The flake8 plugin (and any editor integration) runs harp once per file in one
    process: each run's context, and the modules and attributes it owns, must go."""
    import gc

    def contexts() -> int:
        gc.collect()
        return sum(1 for o in gc.get_objects()
                   if type(o).__name__ == "Context" and "mlir" in type(o).__module__)

    (tmp_path / "train.py").write_text(HOT)
    before = contexts()
    for _ in range(3):
        analyze_json(capsys, "-j", "1", tmp_path / "train.py")
        harp.main(["refactor", "--no-config", str(tmp_path / "train.py")])
        capsys.readouterr()
    assert contexts() == before


def test_pythons_compile_warnings_about_the_program_are_not_printed(tmp_path):
    """harp compiles each file to find what Python's compiler refuses; the warnings it
    gives on the way (`is` with a literal, an invalid escape) are not harp's output."""
    path = tmp_path / "warns.py"
    path.write_text("x = 1\nif x is 'a':\n    y = '\\d'\n")
    done = subprocess.run([sys.executable, "-m", "harp_ir.cli.harp", "analyze", "--no-cache",
                           "--no-config", str(path)], capture_output=True, text=True,
                          timeout=300)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
