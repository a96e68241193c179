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


def test_readme_figures_on_real_code_are_generated_from_the_records():
    """The ecosystem figures the README quotes are those of the recorded run, the
    first-contact entries and the re-grade (bench/ecosystem_tables.py), never typed."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    import ecosystem_tables

    for name, text in ecosystem_tables.blocks().items():
        assert ecosystem_tables.marked(name, text) in README, (
            f"README's {name} block is stale: run python bench/ecosystem_tables.py README.md")
