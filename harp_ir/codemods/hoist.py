"""Hoisting a statement or an expression out of its loop, shared by the fixes of HARP101,
HARP202 and HARP301: the checks that it runs on every iteration and reads nothing the loop
changes, and the edit."""

from __future__ import annotations

import libcst as cst

from harp_ir.codemods import Decline, node_at, syntax, unproved
from harp_ir.rules import established

#: the nodes an invariant computation can be: a call, or an operator on tensors
COMPUTATIONS = (cst.Call, cst.BinaryOperation, cst.UnaryOperation)


def fix_loop_invariant(module, positions, hint):
    """Hoist the invariant computation or conversion: the whole statement when it is
    `name = <computation>`, else the computation into a new variable before the loop;
    with it, in order, the statements of its invariant chain (the finding's `moves`)."""
    parents = syntax.parents(module)
    moved = [syntax.statement_of(node_at(positions, where, COMPUTATIONS), parents)[0]
             for where in hint.moves]
    try:
        return hoist(module, positions, hint, "computation", COMPUTATIONS, moved)
    except NotWholeStatement:
        pass
    node = node_at(positions, hint.span, COMPUTATIONS)
    return hoist_expression(module, node, parents, hint, moved=moved)


#: why a move out of a loop the program does not show to run is unsafe
ZERO_TRIPS = ("the loop to run at least once (moved before it, the code also runs when the "
              "loop runs zero times, and can raise there; `--assume loop-runs` confirms it)")


def _place_before(module, hint, loop, loop_stmt, moved: list, new_loop):
    """`module` with `loop_stmt` replaced by the moved statements, then `new_loop`. Moved
    before its loop, code runs even when the loop runs zero times: there it can raise (a
    matmul of mismatched shapes, `.cuda()` without a GPU) and it leaves its targets set
    after the loop. So unless the program shows the loop runs (`range(100)`, `while True`)
    or the user confirms it (`--assume loop-runs`), the moved code runs under the loop's
    own zero-trip test, as a compiler guards a hoist: for a loop over the builtin `range`,
    `if range(n):` (the range made once into a variable first when its arguments are more
    than names and numbers, or when the moved code rebinds one of them), for a loop over a
    name bound once to a list, `if words:`, joining the guard an earlier hoist put just
    before the loop. Any other loop needs the assumption: the fix is unsafe."""
    guard = None
    if not any(a.kind == "loop-runs" and established(a) for a in hint.assumptions):
        guard = _range_of(module, loop)
        if guard is None:
            unproved(ZERO_TRIPS)
    if guard is None:
        return module.deep_replace(loop_stmt, cst.FlattenSentinel([*moved, new_loop]))
    before = []
    rebound = set().union(*(syntax.names([s]).stored for s in moved))
    if isinstance(guard, cst.Call) and (rebound & syntax.names([guard]).loaded or not all(
            isinstance(a.value, (cst.Name, cst.Integer)) or
            isinstance(a.value, cst.UnaryOperation) and isinstance(a.value.expression,
                                                                    cst.Integer)
            for a in guard.args)):
        target = loop.target.value if isinstance(loop.target, cst.Name) else "loop"
        name = syntax.fresh_name(module, f"{target.strip('_') or 'loop'}_range")
        before = [cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(cst.Name(name))],
                                                      guard)])]
        guard = cst.Name(name)
        new_loop = new_loop.with_changes(iter=guard)
    elif rebound & syntax.names([guard]).loaded:
        raise Decline("the moved code rebinds the name of the range the loop runs over")
    # the loop's own comments stay with the loop; the moved code's go into the guard
    own = len(loop_stmt.leading_lines)
    comments, first_own = moved[0].leading_lines[:own], moved[0].leading_lines[own:]
    moved = [moved[0].with_changes(leading_lines=first_own), *moved[1:]]
    block = syntax.parents(module).get(loop_stmt)
    body = list(block.body) if isinstance(block, (cst.IndentedBlock, cst.Module)) else []
    index = next((i for i, b in enumerate(body) if b is loop_stmt), 0)
    earlier = body[index - 1] if index and not before else None
    if isinstance(earlier, cst.If) and earlier.orelse is None and \
            earlier.test.deep_equals(guard):  # the guard of an earlier hoist
        joined = earlier.with_changes(body=earlier.body.with_changes(
            body=[*earlier.body.body, *moved]))
        body[index - 1:index + 1] = [joined, new_loop.with_changes(leading_lines=comments)]
        return module.deep_replace(block, block.with_changes(body=body))
    test = cst.If(test=guard.deep_clone(), body=cst.IndentedBlock(moved))
    first, *rest = [*before, test]
    first = first.with_changes(leading_lines=comments)
    return module.deep_replace(loop_stmt, cst.FlattenSentinel([first, *rest, new_loop]))


def _range_of(module, loop):
    """The zero-trip test of a `for` loop over the builtin `range` with plain positional
    arguments: the `range(...)` call, or the name bound once to one (`steps = range(n)`)
    or to a list (`words = ids.tolist()`); else None."""
    it = loop.iter if isinstance(loop, cst.For) else None
    scope = syntax.scopes(module).get(it) if it is not None else None
    if isinstance(it, cst.Name) and scope is not None:
        bindings = list(scope.assignments[it.value])
        target = getattr(bindings[0], "node", None) if len(bindings) == 1 else None
        parents = syntax.parents(module)
        assign = parents.get(parents.get(target)) if target is not None else None
        value_scope = syntax.scopes(module).get(assign.value) if assign is not None else None
        if isinstance(assign, cst.Assign) and len(assign.targets) == 1 and \
                assign.targets[0].target is target and \
                (_range_call(assign.value, value_scope) or _makes_list(assign.value,
                                                                       value_scope)):
            return it
        return None
    return it if _range_call(it, scope) else None


def _makes_list(value, scope) -> bool:
    """Whether `value` is surely a list or tuple, which is non-empty exactly when a loop
    over it runs and can be iterated again after `if name:`: a display or comprehension,
    `list(...)`, `sorted(...)`, `tuple(...)` of the builtins, or `.tolist()` of an array
    or tensor (a 0-d one gives a number, over which the loop itself would raise)."""
    if isinstance(value, (cst.List, cst.Tuple, cst.ListComp)):
        return True
    if not isinstance(value, cst.Call) or scope is None:
        return False
    if isinstance(value.func, cst.Attribute):
        return value.func.attr.value == "tolist" and not value.args
    names = {q.name for q in scope.get_qualified_names_for(value.func)}
    return bool(names) and names <= {"builtins.list", "builtins.sorted", "builtins.tuple"}


def _range_call(call, scope) -> bool:
    """`range(...)` of the builtin, with one to three positional arguments."""
    if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Name) and
            call.func.value == "range" and 1 <= len(call.args) <= 3 and
            all(a.keyword is None and not a.star for a in call.args) and scope is not None):
        return False
    return {q.name for q in scope.get_qualified_names_for(call.func)} == {"builtins.range"}


def runs_every_step(node, loop, parents) -> None:
    """Declines unless `node` runs on every iteration of `loop` that reaches the end:
    not under a condition, a short-circuit, a handler or an inner loop, and not after a
    statement that can skip it (`continue`, `break`, `return`, `raise`). Moved before the
    loop, such code would run when the original never does (and may raise there)."""
    child = node
    while child in parents and child is not loop:
        parent = parents[child]
        if isinstance(parent, (cst.If, cst.IfExp)) and child is not parent.test or \
                isinstance(parent, cst.BooleanOperation) and child is parent.right or \
                isinstance(parent, cst.Try) and child is not parent.body or \
                isinstance(parent, (cst.For, cst.While)) and parent is not loop and \
                child is not getattr(parent, "iter", getattr(parent, "test", None)) or \
                isinstance(parent, (cst.CompFor, cst.Lambda, cst.FunctionDef)):
            raise Decline("it runs only under a condition in the loop (a branch, a "
                          "short-circuit, a handler or an inner loop): before the loop it "
                          "would run when the original does not")
        if isinstance(parent, cst.IndentedBlock):
            earlier = list(parent.body)[:list(parent.body).index(child)]
            skips = syntax.exits(earlier, ("continue", "break", "return", "raise"))
            if skips:
                raise Decline(f"a {skips[0]} before it can skip it: before the loop it "
                              f"would run when the original does not")
        child = parent


def hoist_expression(module, call, parents, hint, before=(), moved=()):
    """Compute `call` once into a new variable just before its loop (after the statements
    `moved` out of the loop body and the new statements `before`) and use the variable in
    the loop."""
    loop = syntax.enclosing_loop(call, parents)
    runs_every_step(call, loop, parents)
    syntax.changed_by_calls(module, call)
    _reads_only_moved(call, loop, moved)
    for stmt in moved:
        _check_movable(module, stmt, loop, parents, "computation")
    name = syntax.fresh_name(module, f"{_base_name(call)}_hoisted")
    loop_stmt, _ = syntax.statement_of(loop, parents)
    assign = cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(cst.Name(name))], call)])
    first, *rest = [*moved, *before, assign]
    first = first.with_changes(  # the loop's comments, then the statement's own
        leading_lines=[*loop_stmt.leading_lines, *first.leading_lines])
    if moved:
        body = loop.body.with_changes(body=[s for s in loop.body.body if s not in moved])
        loop_stmt = loop_stmt.deep_replace(loop, loop.with_changes(body=body)) \
            if loop_stmt is not loop else loop.with_changes(body=body)
    new_loop = loop_stmt.deep_replace(call, cst.Name(name)).with_changes(leading_lines=[])
    original, _ = syntax.statement_of(loop, parents)
    return _place_before(module, hint, loop, original, [first, *rest], new_loop)


def _base_name(node) -> str:
    """What a hoisted value is called: the function's name, or what an operator makes."""
    if isinstance(node, cst.Call):
        func = node.func
        return func.attr.value if isinstance(func, cst.Attribute) else \
            getattr(func, "value", "value")
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator,
                                                            cst.MatrixMultiply):
        return "product"
    return "value"


def _reads_only_moved(node, loop, moved) -> None:
    """Declines when `node` reads a name the loop assigns that no statement moved with it
    sets: before the loop it would read the value from before the loop."""
    written = syntax.loop_writes(loop)
    if isinstance(loop, cst.For):
        written |= syntax.names([loop.target]).loaded
    set_by_moved = set()
    for stmt in moved:
        for small in stmt.body:
            if isinstance(small, cst.Assign):
                for t in small.targets:
                    set_by_moved |= syntax.bound_names(t.target)
    stale = sorted(syntax.names([node]).loaded & written - set_by_moved)
    if stale:
        raise Decline(f"it reads `{stale[0]}`, which the loop changes")


class NotWholeStatement(Decline):  # noqa: N818
    pass


def only_names(target) -> bool:
    """`a` or `a, b` (names only, no attributes, items or stars)."""
    if isinstance(target, (cst.Tuple, cst.List)):
        return all(isinstance(e, cst.Element) and only_names(e.value)
                   for e in target.elements)
    return isinstance(target, cst.Name)


def only_around(expr, call) -> bool:
    """Whether `call` is the only call in `expr` (`grads = tf.gradients(l, [w])[0]`): what
    surrounds it is plain indexing and arithmetic, safe to move with it."""
    calls = []

    class Calls(cst.CSTVisitor):
        def visit_Call(self, node):
            calls.append(node)
            return False  # what the call computes was proved by the pass

    expr.visit(Calls())
    return calls == [call]


def hoist(module, positions, hint, what, kinds=cst.Call, moved=()):
    """Move `name = <the node at the hint>` from a loop body to just before the loop, after
    the statements `moved` with it (its invariant chain, in order)."""
    call = node_at(positions, hint.span, kinds)
    parents = syntax.parents(module)
    stmt, block = syntax.statement_of(call, parents)
    loop = parents.get(block)
    if not isinstance(loop, (cst.For, cst.While)) or \
            not _whole_assignment(stmt, call, loop):
        raise NotWholeStatement(f"only `name = {what}(...)` statements directly in the "
                                 f"loop body are hoisted")
    _reads_only_moved(call, loop, moved)
    for statement in [*moved, stmt]:
        _check_movable(module, statement, loop, parents, what)
    loop_stmt, _ = syntax.statement_of(loop, parents)
    others = [s for s in block.body if s is not stmt and s not in moved]
    new_body = block.with_changes(body=others or [cst.SimpleStatementLine([cst.Pass()])])
    new_loop = loop.with_changes(body=new_body)
    first, *rest = [*moved, stmt]
    first = first.with_changes(  # the loop's comments, then the statement's own
        leading_lines=[*loop_stmt.leading_lines, *first.leading_lines])
    new_loop = new_loop.with_changes(leading_lines=[])
    return _place_before(module, hint, loop, loop_stmt, [first, *rest], new_loop)


def _whole_assignment(stmt, node, loop) -> bool:
    """`names = node` (or plain indexing and arithmetic around it that reads nothing the
    loop writes), as the one statement of its line."""
    small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and \
        len(stmt.body) == 1 else None
    return isinstance(small, cst.Assign) and len(small.targets) == 1 and \
        only_names(small.targets[0].target) and (
            small.value is node or only_around(small.value, node)
            and not syntax.names([small.value]).loaded & syntax.loop_writes(loop))


def _check_movable(module, stmt, loop, parents, what) -> None:
    """Declines unless the statement `name = ...`, directly in `loop`'s body, can run once
    before the loop instead: it runs on every iteration, no call changes what it reads,
    its targets are assigned nowhere else in the loop and read nowhere before it, and it
    does not read the loop variable."""
    block = parents.get(stmt)
    small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and \
        len(stmt.body) == 1 else None
    if parents.get(block) is not loop or not isinstance(small, cst.Assign) or \
            len(small.targets) != 1 or not only_names(small.targets[0].target):
        raise Decline("a statement of the chain is not `name = ...` directly in the loop body")
    body = list(block.body)
    index = body.index(stmt)
    others = body[:index] + body[index + 1:]
    runs_every_step(stmt, loop, parents)
    syntax.changed_by_calls(module, small.value)
    for target in sorted(syntax.bound_names(small.targets[0].target)):
        if target in syntax.names(others).stored:
            raise Decline(f"`{target}` is assigned elsewhere in the loop")
        if target in syntax.names(body[:index]).loaded:
            raise Decline(f"`{target}` is read in the loop before it is assigned")
    loop_targets = syntax.names([loop.target]).loaded if isinstance(loop, cst.For) else set()
    if loop_targets & syntax.names([small.value]).loaded:
        raise Decline(f"the {what} reads the loop variable")
