"""The README's hint table is the one generated from the hint catalogue."""

from pathlib import Path

from harp_ir import hints

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")


def test_readme_hint_table_is_generated_from_the_catalogue():
    assert hints.markdown_section() in README, "run: python -m harp_ir.hints README.md"


def test_readme_refactoring_table_is_generated_from_the_fixes():
    assert hints.fixes_table() in README, "run: python -m harp_ir.hints README.md"


def test_every_hint_has_a_readme_anchor():
    for h in hints.HINTS:
        assert f'<a id="{h.id.lower()}-{h.name}"></a>' in README
