"""A flake8 plugin, so harp's hints show up where people already lint:

    pip install harp flake8 && flake8 --select=HRP train.py
    flake8 --select=HRP --filename='*.ipynb' nb.ipynb   # notebooks, read with nbformat

flake8 (5.0 and later) accepts only codes of one to three letters and up to three digits,
so HARP201 is reported as HRP201 (`# noqa: HRP201`), with harp's own id in the message.
`--harp-level aggressive` (or `harp-level = aggressive` in flake8's config) shows the
hints that rest on a high-risk speculation, as `harp analyze --level aggressive` does.
"""

from __future__ import annotations

from harp_ir import __version__

#: the plugin's code prefix: flake8 wants `[A-Z]{1,3}[0-9]{0,3}`
PREFIX = "HRP"


def flake8_code(hint_id: str) -> str:
    """`HARP201` -> `HRP201`."""
    return PREFIX + hint_id.removeprefix("HARP")


class HarpChecker:
    name = "harp"
    version = __version__
    level = "default"

    @classmethod
    def add_options(cls, parser) -> None:
        parser.add_option("--harp-level", default="default", parse_from_config=True,
                          choices=("conservative", "default", "aggressive"),
                          help="harp's level: which speculations a hint may rest on "
                               "(default: %(default)s)")

    @classmethod
    def parse_options(cls, options) -> None:
        cls.level = options.harp_level

    def __init__(self, tree, filename: str):
        self.filename = filename

    def run(self):
        from harp_ir.context import make_context
        from harp_ir.feedback import Feedback, filter_hints
        from harp_ir.frontend.source import FrontendError
        from harp_ir.report import analyze_file

        if self.filename in ("-", "stdin", None):
            return
        try:
            with make_context():
                found = filter_hints(analyze_file(self.filename), Feedback(self.level))
        except FrontendError:
            return  # flake8 reports syntax errors itself (E999)
        for h in found:
            # flake8 knows no cells: a notebook's hint names its cell in the message
            where = f"cell {h.span.cell}:{h.span.line}: " if h.span.cell is not None else ""
            yield (h.span.line, h.span.col - 1,
                   f"{flake8_code(h.id)} {h.name} ({h.id}): {where}{h.message}", type(self))
