"""Facts read off the libcst tree that the fixes share: parents, the statement and loop
around a node, scopes (libcst's ScopeProvider), names read and bound, the statements that
leave a block, fresh names, the module's alias for a library."""

from __future__ import annotations

import functools

import libcst as cst
from libcst.metadata import GlobalScope, MetadataWrapper, PositionProvider, ScopeProvider

from harp_ir.codemods import Decline
from harp_ir.frontend.names import dotted_name


@functools.lru_cache(maxsize=4)
def parents(module: cst.Module) -> dict:
    """Each node's parent, once per module (read-only: `analyze` dry-runs every hint of a
    file on the same tree, and a fix asks again for the tree it builds)."""
    parents = {}

    class Visitor(cst.CSTVisitor):
        def on_visit(self, node):
            for child in node.children:
                parents[child] = node
            return True

    module.visit(Visitor())
    return parents


def statement_of(node, parents):
    """The statement holding `node` and the block (suite) holding that statement."""
    while node in parents:
        parent = parents[node]
        if isinstance(node, (cst.SimpleStatementLine, cst.BaseCompoundStatement)) and \
                isinstance(parent, (cst.IndentedBlock, cst.Module)):
            return node, parent
        node = parent
    raise Decline("not inside a statement block")


@functools.lru_cache(maxsize=4)
def scopes(module: cst.Module):
    """libcst's scope analysis of `module` (node -> scope), once per module: a codemod
    asks it for several names and nodes of the same tree."""
    return MetadataWrapper(module, unsafe_skip_copy=True).resolve(ScopeProvider)


def read_elsewhere(module, node, name: str) -> str:
    """Where `name`, as bound in the scope holding `node`, is used by another scope (a
    function, a lambda, a class body) or declared `global`/`nonlocal` there: such code
    can run while a loop is rewriting the name and would see the rewritten value. ""
    when nowhere (libcst's scope analysis)."""
    here = scopes(module).get(node)
    if here is None:
        return ""
    assigned = assigned_elsewhere(module, node, name)
    if assigned:
        return assigned
    for assignment in here.assignments[name]:
        for access in assignment.references:
            if access.scope is not here:
                what = type(access.scope).__name__.removesuffix("Scope").lower()
                return f"`{name}` is read by a {what} ({line(module, access.node)})"
    return ""


def assigned_elsewhere(module, node, name: str) -> str:
    """Where `name`, as bound in the scope holding `node`, is assigned by another scope (a
    function's `global` or `nonlocal`): a call can change it ("" when nowhere)."""
    scope_of = scopes(module)
    here = scope_of.get(node)
    if here is None or name not in here:
        return ""
    while not here.assignments[name] and not isinstance(here, GlobalScope):
        here = here.parent  # a free name: the scope that binds it
    for assignment in here.assignments[name]:
        if getattr(assignment, "node", None) is not None and \
                scope_of.get(assignment.node) not in (here, None):
            return f"`{name}` is assigned by another scope ({line(module, assignment.node)})"
    return ""


def changed_by_calls(module, node) -> None:
    """Declines when a name `node` reads can be rebound by a function (`global`)."""
    for name in sorted(names([node]).loaded):
        assigned = assigned_elsewhere(module, node, name)
        if assigned:
            raise Decline(f"{assigned}: a call in the loop can change it")


def line(module, node) -> str:
    positions = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    return f"line {positions[node].start.line}" if node in positions else "elsewhere"


def handlers_reading(name: str, node, parents) -> str:
    """Where an exception raised at `node` is caught, within its function, by an
    `except`/`finally` that reads `name` (it would see the value mid-rewrite)."""
    child = node
    while child in parents and not isinstance(child, (cst.FunctionDef, cst.Lambda)):
        parent = parents[child]
        if isinstance(parent, cst.Try) and child is parent.body:
            rest = [*parent.handlers, parent.finalbody] if parent.finalbody else \
                [*parent.handlers]
            if name in names(rest).loaded:
                return f"an exception leaving the loop reaches a handler that reads `{name}`"
        child = parent
    return ""


class Names(cst.CSTVisitor):
    def __init__(self):
        self.loaded, self.stored = set(), set()

    def visit_Name(self, node):
        self.loaded.add(node.value)

    def visit_Attribute(self, node):  # `tf.train`: `train` is no variable
        node.value.visit(self)
        return False

    def visit_Arg(self, node):  # `f(lr=...)`: `lr` is no variable
        node.value.visit(self)
        return False

    def visit_AssignTarget(self, node):
        self.stored.update(bound_names(node.target))

    def visit_AugAssign(self, node):
        self.stored.update(bound_names(node.target))

    def visit_AnnAssign(self, node):
        self.stored.update(bound_names(node.target))

    def visit_NamedExpr(self, node):
        self.stored.update(bound_names(node.target))


def bound_names(target) -> set[str]:
    """The names an assignment target binds: `a`, and `a, (b, *c)`; not `a.x` or `a[i]`."""
    if isinstance(target, cst.Name):
        return {target.value}
    if isinstance(target, (cst.Tuple, cst.List)):
        return set().union(*(bound_names(e.value) for e in target.elements))
    if isinstance(target, cst.StarredElement):
        return bound_names(target.value)
    return set()


def names(nodes) -> Names:
    v = Names()
    for n in nodes:
        n.visit(v)
    return v


def loop_body_statement(call, parents):
    """For a call that is the value of a one-statement line directly in a loop body:
    (that line, its small statement, the body block, the loop); else small is None."""
    stmt, block = statement_of(call, parents)
    loop = parents.get(block)
    small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and \
        len(stmt.body) == 1 else None
    if not isinstance(loop, (cst.For, cst.While)) or getattr(small, "value", None) is not call:
        small = None
    return stmt, small, block, loop


def enclosing_loop(node, parents):
    while node in parents:
        node = parents[node]
        if isinstance(node, (cst.For, cst.While)):
            return node
        if isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            break
    raise Decline("not inside a loop")


def fresh_name(module: cst.Module, base: str) -> str:
    used = names([module]).loaded
    name, n = base, 1
    while name in used:
        n += 1
        name = f"{base}_{n}"
    return name


EXIT_KINDS = {cst.Continue: "continue", cst.Break: "break", cst.Return: "return",
               cst.Raise: "raise", cst.Yield: "yield"}


def exits(nodes, kinds: tuple[str, ...]) -> list[str]:
    """The statements of `kinds` (`continue`, `break`, `return`, `raise`, `yield`) in
    `nodes` that leave them, in order: not those of a nested function, nor the `break` or
    `continue` of a nested loop."""
    found = []

    class Exits(cst.CSTVisitor):
        loops = 0

        def on_visit(self, node):
            if isinstance(node, (cst.FunctionDef, cst.Lambda)):
                return False
            if isinstance(node, (cst.For, cst.While)):
                self.loops += 1
            kind = EXIT_KINDS.get(type(node))
            if kind in kinds and not (self.loops and kind in ("break", "continue")):
                found.append(f"`{kind}`")
            return True

        def on_leave(self, node):
            if isinstance(node, (cst.For, cst.While)):
                self.loops -= 1

    for node in nodes:
        node.visit(Exits())
    return found


def module_alias(module: cst.Module, library: str) -> str | None:
    """The name `library` is imported as at module level (`import tensorflow as tf`)."""
    for stmt in module.body:
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if isinstance(small, cst.Import):
                    for a in small.names:
                        if dotted_name(a.name) == library:
                            return a.asname.name.value if a.asname else library
    return None


def keeps_running_value(module, loop, parents, name: str) -> None:
    """Declines when code other than the statements after the loop could see `name` while
    the loop is rewriting it: another scope reading it (a callee, a closure, a
    `nonlocal`), a `return` or `yield` inside the loop, or a handler the loop can raise
    into."""
    elsewhere = read_elsewhere(module, loop, name)
    if elsewhere:
        raise Decline(f"{elsewhere}, which can run during the loop and would see the "
                      f"rewritten value")
    leaving = exits([loop.body], ("return", "yield"))
    if leaving:
        raise Decline(f"the loop can leave by {leaving[0]} before the conversion after it runs")
    handler = handlers_reading(name, loop, parents)
    if handler:
        raise Decline(handler)


def loop_writes(loop) -> set[str]:
    """The names a loop rebinds: its target and every name assigned or defined in it."""
    written = names([loop.body]).stored
    if isinstance(loop, cst.For):
        written |= names([loop.target]).loaded

    class Defs(cst.CSTVisitor):
        def visit_FunctionDef(self, node):
            written.add(node.name.value)

        def visit_ClassDef(self, node):
            written.add(node.name.value)

        def visit_Import(self, node):
            written.update(dotted_name(a.asname.name if a.asname else a.name).split(".")[0]
                           for a in node.names)

        def visit_For(self, node):
            written.update(names([node.target]).loaded)

        def visit_With(self, node):
            for item in node.items:
                if item.asname is not None:
                    written.update(names([item.asname.name]).loaded)

    loop.body.visit(Defs())
    return written


def walk(node):
    """Every node under `node`, `node` first."""
    found = []

    class All(cst.CSTVisitor):
        def on_visit(self, n):
            found.append(n)
            return True

    node.visit(All())
    return found


@functools.lru_cache(maxsize=4)
def number_names(module) -> frozenset[str]:
    """Names that are only ever bound to numbers (`lr = 0.1`, `scale = 2 * 3`,
    `mean = float(x.mean())`), once per module."""
    bound: dict[str, bool] = {}

    def numeric(expr) -> bool:
        if isinstance(expr, (cst.Integer, cst.Float)):
            return True
        if isinstance(expr, cst.Name):  # `t = t + 1.0` after `t = 1.0`
            return bound.get(expr.value, False)
        if isinstance(expr, cst.Call) and (dotted_name(expr.func) in ("float", "int") or
                                           dotted_name(expr.func).endswith(".item")):
            return True  # `float(x.std())`, `x.mean().item()`: a Python number
        if isinstance(expr, cst.UnaryOperation):
            return numeric(expr.expression)
        if isinstance(expr, cst.BinaryOperation):
            return numeric(expr.left) and numeric(expr.right)
        return False

    class Bindings(cst.CSTVisitor):
        def visit_Assign(self, node):
            for t in node.targets:
                if isinstance(t.target, cst.Name):
                    name = t.target.value
                    bound[name] = bound.get(name, True) and numeric(node.value)
                else:  # `a, scale = ...`: not known to be a number
                    bound.update(dict.fromkeys(bound_names(t.target), False))

        def visit_AugAssign(self, node):
            if isinstance(node.target, cst.Name):
                bound[node.target.value] = bound.get(node.target.value, True) and \
                    numeric(node.value)

        def visit_Param(self, node):
            bound[node.name.value] = False

        def visit_For(self, node):
            for n in names([node.target]).loaded:
                bound[n] = False

    module.visit(Bindings())
    return frozenset(n for n, only_numbers in bound.items() if only_numbers)


def factory_on_device(module: cst.Module, call: cst.Call, factories) -> cst.Call:
    """`torch.<factory>(...).to(device)` / `.cuda()` as `torch.<factory>(..., device=...)`:
    the tensor is made where it goes (HARP202's filled buffers, HARP205's draws). Declines
    when the moved tensor is not such a factory written in the expression, when it already
    names a device or takes `*args`, and when the move does more than name a device."""
    torch = module_alias(module, "torch")
    factory = call.func.value if isinstance(call.func, cst.Attribute) else None
    name = dotted_name(factory.func) if isinstance(factory, cst.Call) else ""
    if torch is None or not name.startswith(f"{torch}.") or \
            name.removeprefix(f"{torch}.") not in factories:
        raise Decline("the moved tensor is not a torch factory written in the expression")
    if any(a.keyword and a.keyword.value in ("device", "out", "requires_grad", "pin_memory")
           or a.star for a in factory.args):
        raise Decline("the factory already names a device or takes `out=`, "
                      "`requires_grad=`, `pin_memory=` or `*args`")
    if call.func.attr.value == "cuda":
        if call.args:
            raise Decline("`.cuda(i)` names a device index")
        device = cst.SimpleString('"cuda"')
    elif len(call.args) == 1 and not call.args[0].keyword and not call.args[0].star:
        device = call.args[0].value
    else:
        raise Decline("`.to(...)` does more than move to a device")
    args = list(factory.args)
    if args:
        args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    keyword = cst.Arg(device, keyword=cst.Name("device"), equal=cst.AssignEqual(
        whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")))
    return factory.with_changes(args=[*args, keyword])
