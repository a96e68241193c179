"""`harp import F.py | harp-opt` round-trips for every example and lit input."""

from pathlib import Path

import pytest
from torch_mlir import ir

from harp_ir.frontend.lower import lower_file

ROOT = Path(__file__).resolve().parents[2]
INPUTS = sorted(p for p in [*ROOT.glob("examples/*.py"), *ROOT.glob("tests/lit/**/*.py")]
                if "Output" not in p.parts and p.name not in ("lit.cfg.py", "broken.py",
                                                               "expect_exit.py"))


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_pretty_and_generic_forms_reparse(ctx, path):
    assert_round_trips(lower_file(path))


def assert_round_trips(module: ir.Module) -> None:
    """Printed in either form and parsed again, the module verifies and prints the same."""
    for generic in (False, True):
        text = module.operation.get_asm(enable_debug_info=True, print_generic_op_form=generic)
        again = ir.Module.parse(text)
        assert again.operation.verify()
        assert again.operation.get_asm(enable_debug_info=True,
                                       print_generic_op_form=generic) == text


@pytest.mark.parametrize("source", ["", "\n", "# only a comment\n", '"""a docstring"""\n'])
def test_a_program_with_no_statements_round_trips(ctx, tmp_path, source):
    """An empty file's module once printed two location aliases the parser merges (an
    empty range prints as a point), so its text did not round-trip."""
    path = tmp_path / "empty.py"
    path.write_text(source)
    assert_round_trips(lower_file(path))
