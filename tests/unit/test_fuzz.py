"""A small seeded fuzz: random mutations of valid programs through `harp analyze`, and of
valid host-dialect modules through `harp-opt`'s analysis pipeline. Whatever the input, the
tools answer with hints or error lines: no traceback, no hang."""

import random
from pathlib import Path

import pytest

from harp_ir.cli import harp, harp_opt
from harp_ir.frontend.lower import lower_source
from harp_ir.passes import analysis_pipeline

ROOT = Path(__file__).resolve().parents[2]
PROGRAMS = [ROOT / "examples" / "torch_train.py", ROOT / "examples" / "tf_eager.py",
            ROOT / "tests" / "lit" / "hints" / "feed_invariant.py",
            ROOT / "tests" / "lit" / "hints" / "host_random_to_device.py"]
TOKENS = ["(", ")", "[", ":", ",", "lambda", "*", "**", "yield", "await", "\t", "    ",
          "\\", "'", '"""', "#", "@", "async ", "global x", "del ", "= ", ".item()", "\n"]


def mutate_source(text: str, rng: random.Random) -> str:
    lines = text.splitlines(keepends=True)
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(lines))
        kind = rng.choice(["delete", "duplicate", "swap", "insert", "truncate"])
        if kind == "delete" and len(lines) > 1:
            del lines[i]
        elif kind == "duplicate":
            lines.insert(i, lines[i])
        elif kind == "swap":
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif kind == "insert":
            col = rng.randrange(len(lines[i]) + 1)
            lines[i] = lines[i][:col] + rng.choice(TOKENS) + lines[i][col:]
        else:
            lines[i] = lines[i][:rng.randrange(len(lines[i]) + 1)]
    return "".join(lines)


@pytest.mark.parametrize("seed", range(24))
def test_mutated_programs_get_hints_or_error_lines(tmp_path, capsys, seed):
    rng = random.Random(seed)
    program = PROGRAMS[seed % len(PROGRAMS)]
    path = tmp_path / program.name
    path.write_text(mutate_source(program.read_text(), rng))
    status = harp.main(["analyze", "--no-config", "-j", "1", str(path)])
    err = capsys.readouterr().err
    assert status in (0, 1, 2) and "Traceback" not in err


#: attribute values a mutation puts in place of a string attribute's
ODD_VALUES = ["7 : i64", "[1, 2]", "unit", '""', "{a = 1}", "1.5 : f32", "true"]


def mutate_module(text: str, rng: random.Random) -> str:
    """Swap an attribute's value for one of another kind, rename an op, or drop a line."""
    lines = text.splitlines()
    for _ in range(rng.randint(1, 2)):
        i = rng.randrange(len(lines))
        line = lines[i]
        kind = rng.choice(["value", "value", "rename", "drop"])
        if kind == "value" and " = \"" in line:
            start = line.index(' = "') + 3
            end = line.index('"', start + 1) + 1
            lines[i] = line[:start] + rng.choice(ODD_VALUES) + line[end:]
        elif kind == "rename" and '"host.' in line:
            lines[i] = line.replace('"host.', '"host.x', 1)
        elif kind == "drop":
            del lines[i]
    return "\n".join(lines) + "\n"


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
