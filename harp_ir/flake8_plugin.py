"""A flake8 plugin, so harp's hints show up where people already lint:

    pip install harp flake8 && flake8 --select=HARP train.py
    flake8 --select=HARP --filename='*.ipynb' nb.ipynb   # notebooks, read with nbformat
"""

from __future__ import annotations

from harp_ir import __version__


class HarpChecker:
    name = "harp"
    version = __version__

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
                found = filter_hints(analyze_file(self.filename), Feedback())
        except FrontendError:
            return  # flake8 reports syntax errors itself (E999)
        for h in found:
            # flake8 knows no cells: a notebook's hint names its cell in the message
            where = f"cell {h.span.cell}:{h.span.line}: " if h.span.cell is not None else ""
            yield h.span.line, h.span.col - 1, f"{h.id} {h.name}: {where}{h.message}", type(self)
