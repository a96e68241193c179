"""A small seeded fuzz: random mutations of valid programs through `harp analyze`, and of
valid host-dialect modules through `harp-opt`'s analysis pipeline, with the mutators of the
long fuzz (`python bench/fuzz.py`); and the inputs the long fuzz found tracebacks on.
Whatever the input, the tools answer with hints or error lines: no traceback, no hang."""

import random
import sys
from pathlib import Path

import pytest

from harp_ir.cli import harp, harp_opt
from harp_ir.frontend.lower import lower_source
from harp_ir.passes import analysis_pipeline

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
from fuzz import generated_program, mutate_module, mutate_source, notebook_text  # noqa: E402

PROGRAMS = [ROOT / "examples" / "torch_train.py", ROOT / "examples" / "tf_eager.py",
            ROOT / "tests" / "lit" / "hints" / "feed_invariant.py",
            ROOT / "tests" / "lit" / "hints" / "host_random_to_device.py"]
@pytest.mark.parametrize("seed", range(24))
def test_mutated_programs_get_hints_or_error_lines(tmp_path, capsys, seed):
    rng = random.Random(seed)
    program = PROGRAMS[seed % len(PROGRAMS)]
    path = tmp_path / program.name
    path.write_text(mutate_source(program.read_text(), rng))
    status = harp.main(["analyze", "--no-config", "-j", "1", str(path)])
    err = capsys.readouterr().err
    assert status in (0, 1, 2) and "Traceback" not in err


@pytest.mark.parametrize("seed", range(24))
def test_mutated_modules_get_error_lines_not_crashes(ctx, tmp_path, capsys, seed):
    rng = random.Random(seed)
    program = PROGRAMS[seed % len(PROGRAMS)]
    text = lower_source(program.read_text(), program.name).operation.get_asm(
        print_generic_op_form=True)
    path = tmp_path / "m.mlir"
    path.write_text(mutate_module(text, rng))
    status = harp_opt.main([str(path), *(f"--{p}" for p in analysis_pipeline())])
    assert status in (0, 1) and "Traceback" not in capsys.readouterr().err


@pytest.mark.parametrize("seed", range(8))
def test_generated_programs_and_notebooks_get_hints_or_error_lines(tmp_path, capsys, seed):
    rng = random.Random(seed)
    program = tmp_path / "gen.py"
    program.write_text(generated_program(rng))
    book = tmp_path / "nb.ipynb"
    book.write_text(notebook_text(generated_program(rng), rng))
    for command in (["analyze", "--no-config", "-j", "1"], ["refactor", "--no-config"]):
        status = harp.main([*command, str(program), str(book)])
        err = capsys.readouterr().err
        assert status in (0, 1, 2) and "Traceback" not in err, err


@pytest.mark.parametrize("source, message", [
    ("for i in range(3):\n    pass\nbreak\n", "3:1: error: invalid syntax: 'break' outside loop"),
    ("def f():\n    nonlocal q\n", "2:5: error: invalid syntax: no binding for nonlocal 'q'"),
    ("x = 1\nyield x\n", "2:1: error: invalid syntax: 'yield' outside function"),
])
@pytest.mark.parametrize("command", ["analyze", "refactor", "import"])
def test_what_pythons_compiler_refuses_is_a_syntax_error_in_every_command(
        tmp_path, capsys, source, message, command):
    """The long fuzz found these lowered to IR the verifier refuses (a traceback in
    `refactor`): Python's parser accepts them, its compiler does not."""
    path = tmp_path / "bad.py"
    path.write_text(source)
    status = harp.main([command, *(["--no-config"] if command != "import" else []),
                        str(path)])
    err = capsys.readouterr().err
    assert status in (1, 2) and f"{path}:{message}" in err and "Traceback" not in err


@pytest.mark.parametrize("source", [
    # a sum appended outside any loop of its function, the backward in a loop below it
    "for step in range(2):\n    async def run():\n        lst.append(loss)\n"
    "        for epoch in range(1):\n            loss.backward()\n",
    # `async` alone on a line: read as a 3.6 name, then refused by libcst
    "import torch\nasync \ndef project(W):\n    return W\n",
])
def test_programs_the_long_fuzz_found_tracebacks_on(tmp_path, capsys, source):
    path = tmp_path / "found.py"
    path.write_text(source)
    for command in (["analyze", "--no-config"], ["refactor", "--no-config"]):
        status = harp.main([*command, str(path)])
        err = capsys.readouterr().err
        assert status in (0, 1, 2) and "Traceback" not in err and "harp failed" not in err


def test_top_level_await_is_fine_in_a_notebook(tmp_path, capsys):
    book = tmp_path / "nb.ipynb"
    import nbformat

    cells = ["import asyncio\nawait asyncio.sleep(0)\n", "from __future__ import annotations\n"]
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells]),
                   str(book))
    assert harp.main(["analyze", "--no-config", str(book)]) == 0, capsys.readouterr().err


@pytest.mark.parametrize("body", ['"\\FF"() : () -> ()',
                                  # inside a region the verifier read the name and the
                                  # bindings aborted the process (found by the long fuzz)
                                  '"\\FF"() ({\n  "hostcf.return"() : () -> ()\n}) : () -> ()'])
def test_an_op_name_that_is_not_utf8_is_one_error_line(tmp_path, body):
    import subprocess

    path = tmp_path / "m.mlir"
    path.write_text(f'"builtin.module"() ({{\n  {body}\n}}) : () -> ()\n')
    done = subprocess.run([sys.executable, "-m", "harp_ir.cli.harp_opt", str(path),
                           "--harp-host-sync-in-loop"], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 1
    assert done.stderr == f"{path}:2:3: error: an op or location is named in bytes that " \
                          f"are not valid UTF-8: \"\\FF\"\n"
