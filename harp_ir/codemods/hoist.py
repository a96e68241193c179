"""Hoisting a statement or an expression out of its loop, shared by the fixes of HARP101,
HARP202 and HARP301: the checks that it runs on every iteration and reads nothing the loop
changes, and the edit."""

from __future__ import annotations

import libcst as cst

from harp_ir.codemods import Decline, node_at, syntax


def fix_loop_invariant(module, positions, hint):
    """Hoist the invariant computation or conversion: the whole statement when it is
    `name = call`, else the call into a new variable before the loop."""
    try:
        return hoist(module, positions, hint, "computation")
    except NotWholeStatement:
        pass
    call = node_at(positions, hint.span, cst.Call)
    return hoist_expression(module, call, syntax.parents(module))


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


def hoist_expression(module, call, parents, before=()):
    """Compute `call` once into a new variable just before its loop (after the statements
    `before`) and use the variable in the loop."""
    loop = syntax.enclosing_loop(call, parents)
    runs_every_step(call, loop, parents)
    syntax.changed_by_calls(module, call)
    func = call.func.attr.value if isinstance(call.func, cst.Attribute) else \
        getattr(call.func, "value", "value")
    name = syntax.fresh_name(module, f"{func}_hoisted")
    loop_stmt, _ = syntax.statement_of(loop, parents)
    assign = cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(cst.Name(name))], call)])
    first, *rest = [*before, assign]
    first = first.with_changes(leading_lines=loop_stmt.leading_lines)
    new_loop = loop_stmt.deep_replace(call, cst.Name(name)).with_changes(leading_lines=[])
    return module.deep_replace(loop_stmt, cst.FlattenSentinel([first, *rest, new_loop]))


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


def hoist(module, positions, hint, what):
    """Move `name = <call at the hint>` from a loop body to just before the loop."""
    call = node_at(positions, hint.span, cst.Call)
    parents = syntax.parents(module)
    stmt, block = syntax.statement_of(call, parents)
    loop = parents.get(block)
    small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and \
        len(stmt.body) == 1 else None
    if not (isinstance(loop, (cst.For, cst.While)) and isinstance(small, cst.Assign)
            and len(small.targets) == 1 and only_names(small.targets[0].target)
            and (small.value is call or only_around(small.value, call)
                 and not syntax.names([small.value]).loaded & syntax.loop_writes(loop))):
        raise NotWholeStatement(f"only `name = {what}(...)` statements directly in the "
                                 f"loop body are hoisted")
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
    if loop_targets & syntax.names([call]).loaded:
        raise Decline(f"the {what} reads the loop variable")
    loop_stmt, _ = syntax.statement_of(loop, parents)
    new_body = block.with_changes(body=others or [cst.SimpleStatementLine([cst.Pass()])])
    new_loop = loop.with_changes(body=new_body)
    hoisted = stmt.with_changes(leading_lines=loop_stmt.leading_lines)
    new_loop = new_loop.with_changes(leading_lines=[])
    return module.deep_replace(loop_stmt, cst.FlattenSentinel([hoisted, new_loop]))
