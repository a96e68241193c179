"""A flake8 plugin, so harp's hints show up where people already lint:

    pip install harp flake8 && flake8 --select=HARP train.py
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
        from harp_ir.frontend.lower import FrontendError
        from harp_ir.report import analyze_file

        if self.filename in ("-", "stdin", None):
            return
        try:
            with make_context():
                found = filter_hints(analyze_file(self.filename), Feedback())
        except FrontendError:
            return  # flake8 reports syntax errors itself (E999)
        for h in found:
            yield h.span.line, h.span.col - 1, f"{h.id} {h.name}: {h.message}", type(self)
