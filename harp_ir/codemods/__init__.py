"""Source rewrites for hints: libcst codemods driven by the findings of the passes.

A rule's fix (`harp_ir.rules.Fix`, in its module of `passes/`) takes the parsed module and
one hint (its span says where) and returns the new module, or raises `Decline` with the
reason when it cannot show that the rewrite keeps what the program computes under the
hint's assumptions. A fix is *safe* (applied by default) or *unsafe* (applied with
`--unsafe-fixes`): unsafe when its hint's assumptions say so, or when the fix needs a
condition it could not prove (`unproved`). `syntax` and `hoist` hold what fixes share.
"""

from __future__ import annotations

import functools

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from harp_ir.frontend.source import legacy_names_renamed, tabs_expanded
from harp_ir.notebook import python2_cell


class Decline(Exception):  # noqa: N818  (a decision, not an error)
    """The codemod will not rewrite this hint; the message says why."""


#: conditions the rewrite of the current `apply` needs that are not proved: any makes it
#: an unsafe fix, whatever its hint's assumptions
_unproved: list[str] = []


def unproved(condition: str) -> None:
    """The rewrite keeps what the program computes only if `condition` holds, which the
    codemod could not prove: the fix becomes unsafe (`--unsafe-fixes`)."""
    _unproved.append(condition)


def positions_of(module: cst.Module):
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    return wrapper.resolve(PositionProvider)


def node_at(positions, span, kind):
    """The node of `kind` whose range is the hint's span (of those starting there, the
    one ending there: `f(x).item()` and `f(x)` start at the same column)."""
    starting = [(node, r) for node, r in positions.items() if isinstance(node, kind)
                and (r.start.line, r.start.column + 1) == (span.line, span.col)]
    exact = [n for n, r in starting if (r.end.line, r.end.column + 1) == (span.end_line,
                                                                        span.end_col)]
    if exact:
        return exact[0]
    if not starting:
        names = kind.__name__ if isinstance(kind, type) else "node"
        raise Decline(f"no {names} at {span}")
    return min(starting, key=lambda nr: (nr[1].end.line, nr[1].end.column))[0]


def fix_for(hint_id: str):
    """The fix of the rule that reports `hint_id` (`harp_ir.rules.Fix`), or None."""
    from harp_ir.passes import rule_for

    rule = rule_for(hint_id)
    return rule.fix if rule else None


@functools.lru_cache(maxsize=2)
def _parsed(source: str):
    """The parsed module and its positions, once per text: `analyze` dry-runs every hint of
    a file on the same text (libcst trees are immutable, so fixes cannot change them)."""
    module = cst.parse_module(source)
    return module, positions_of(module)


def apply(source: str, hint) -> tuple[str, list[str]]:
    """The source with `hint` fixed, and the conditions the rewrite needs that were not
    proved (none: the fix is as safe as its hint's assumptions); raises Decline."""
    fix = fix_for(hint.id)
    if fix is None:
        raise Decline(f"no automatic fix for {hint.id} yet")
    cell = python2_cell(source, hint.span.line)
    if cell is not None:
        raise Decline(f"cell {cell} is Python 2 (`print` statements): harp analyses it but "
                      f"does not rewrite it")
    try:
        module, positions = _parsed(source)
    except cst.ParserSyntaxError:
        if legacy_names_renamed(source) is not None:
            raise Decline("the file uses `async` or `await` as a name (Python 3.6 and "
                          "older): harp analyses it but does not rewrite it") from None
        if tabs_expanded(source) is not None:
            raise Decline("the file's indentation mixes tabs and spaces in a way libcst "
                          "cannot read: harp analyses it but does not rewrite it") from None
        raise Decline("the file is Python 2 (`print` statements, `except E, e`): harp "
                      "analyses it but does not rewrite it") from None
    _unproved.clear()
    new = fix.apply(module, positions, hint).code
    try:
        cst.parse_module(new)
    except cst.ParserSyntaxError as e:  # never hand back code that does not parse
        raise Decline(f"the rewrite did not parse: {e.message}") from None
    return new, list(_unproved)
