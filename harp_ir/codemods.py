"""Source rewrites for hints: libcst codemods driven by the findings of the passes.

Each codemod takes the parsed module and one hint (its span says where) and returns the
new module, or raises `Decline` with the reason when it cannot show that the rewrite keeps
what the program computes under the hint's assumptions. A codemod is *safe* (applied by
default) or *unsafe* (applied with `--unsafe-fixes`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

import libcst as cst
from libcst.metadata import GlobalScope, MetadataWrapper, PositionProvider, ScopeProvider

from harp_ir import catalogue
from harp_ir.frontend.lower import dotted_name


class Decline(Exception):  # noqa: N818  (a decision, not an error)
    """The codemod will not rewrite this hint; the message says why."""


#: conditions the rewrite of the current `apply` needs that are not proved: any makes it
#: an unsafe fix, whatever its hint's assumptions
_unproved: list[str] = []


def unproved(condition: str) -> None:
    """The rewrite keeps what the program computes only if `condition` holds, which the
    codemod could not prove: the fix becomes unsafe (`--unsafe-fixes`)."""
    _unproved.append(condition)


@dataclass(frozen=True)
class Codemod:
    hint: str
    safety: Callable  # (hint) -> "safe" | "unsafe"
    apply: Callable  # (module, wrapper positions, hint) -> cst.Module


def _positions(module: cst.Module):
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    return wrapper.resolve(PositionProvider)


def _at(positions, span, kind):
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


def _parents(module: cst.Module) -> dict:
    parents = {}

    class Visitor(cst.CSTVisitor):
        def on_visit(self, node):
            for child in node.children:
                parents[child] = node
            return True

    module.visit(Visitor())
    return parents


def _statement_of(node, parents):
    """The statement holding `node` and the block (suite) holding that statement."""
    while node in parents:
        parent = parents[node]
        if isinstance(node, (cst.SimpleStatementLine, cst.BaseCompoundStatement)) and \
                isinstance(parent, (cst.IndentedBlock, cst.Module)):
            return node, parent
        node = parent
    raise Decline("not inside a statement block")


@functools.lru_cache(maxsize=4)
def _scopes(module: cst.Module):
    """libcst's scope analysis of `module` (node -> scope), once per module: a codemod
    asks it for several names and nodes of the same tree."""
    return MetadataWrapper(module, unsafe_skip_copy=True).resolve(ScopeProvider)


def _read_elsewhere(module, node, name: str) -> str:
    """Where `name`, as bound in the scope holding `node`, is used by another scope (a
    function, a lambda, a class body) or declared `global`/`nonlocal` there: such code
    can run while a loop is rewriting the name and would see the rewritten value. ""
    when nowhere (libcst's scope analysis)."""
    here = _scopes(module).get(node)
    if here is None:
        return ""
    assigned = _assigned_elsewhere(module, node, name)
    if assigned:
        return assigned
    for assignment in here.assignments[name]:
        for access in assignment.references:
            if access.scope is not here:
                what = type(access.scope).__name__.removesuffix("Scope").lower()
                return f"`{name}` is read by a {what} ({_line(module, access.node)})"
    return ""


def _assigned_elsewhere(module, node, name: str) -> str:
    """Where `name`, as bound in the scope holding `node`, is assigned by another scope (a
    function's `global` or `nonlocal`): a call can change it ("" when nowhere)."""
    scopes = _scopes(module)
    here = scopes.get(node)
    if here is None or name not in here:
        return ""
    while not here.assignments[name] and not isinstance(here, GlobalScope):
        here = here.parent  # a free name: the scope that binds it
    for assignment in here.assignments[name]:
        if getattr(assignment, "node", None) is not None and \
                scopes.get(assignment.node) not in (here, None):
            return f"`{name}` is assigned by another scope ({_line(module, assignment.node)})"
    return ""


def _changed_by_calls(module, node) -> None:
    """Declines when a name `node` reads can be rebound by a function (`global`)."""
    for name in sorted(_names([node]).loaded):
        assigned = _assigned_elsewhere(module, node, name)
        if assigned:
            raise Decline(f"{assigned}: a call in the loop can change it")


def _line(module, node) -> str:
    positions = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    return f"line {positions[node].start.line}" if node in positions else "elsewhere"


def _handlers_reading(name: str, node, parents) -> str:
    """Where an exception raised at `node` is caught, within its function, by an
    `except`/`finally` that reads `name` (it would see the value mid-rewrite)."""
    child = node
    while child in parents and not isinstance(child, (cst.FunctionDef, cst.Lambda)):
        parent = parents[child]
        if isinstance(parent, cst.Try) and child is parent.body:
            rest = [*parent.handlers, parent.finalbody] if parent.finalbody else \
                [*parent.handlers]
            if name in _names(rest).loaded:
                return f"an exception leaving the loop reaches a handler that reads `{name}`"
        child = parent
    return ""


# --- HARP502: zero_grad(set_to_none=False) -> zero_grad() ----------------------------


def fix_zero_grad(module, positions, hint):
    call = _at(positions, hint.span, cst.Call)
    args = [a for a in call.args
            if not (a.keyword is not None and a.keyword.value == "set_to_none")]
    if len(args) == len(call.args):
        raise Decline("manual `.grad.zero_()` needs to know who reads the gradient")
    grad = _grad_read(module)
    if grad:
        raise Decline(f"the program reads `.grad` ({grad}): after `zero_grad()` it is None, "
                      f"not zeros")
    if not _stateless_sgd(module, call):
        unproved("every parameter gets a gradient on every step: an optimizer with state, "
                 "momentum or weight decay skips a parameter whose gradient is None but "
                 "still updates one whose gradient is zeros")
    if args:
        args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    return module.deep_replace(call, call.with_changes(args=args))


def _grad_read(module) -> str:
    """Where the program touches a parameter's `.grad` ("" if nowhere)."""
    found = []

    class Grad(cst.CSTVisitor):
        def visit_Attribute(self, node):
            if node.attr.value == "grad":
                found.append(node)

    module.visit(Grad())
    return _line(module, found[0]) if found else ""


def _stateless_sgd(module, call) -> bool:
    """Whether `opt.zero_grad(...)` is called on an optimizer bound once, to
    `torch.optim.SGD(params, lr)` with no momentum or weight decay: a step then leaves a
    parameter with a zero gradient exactly as it leaves one with none."""
    if not (isinstance(call.func, cst.Attribute) and isinstance(call.func.value, cst.Name)):
        return False
    scope = _scopes(module).get(call)
    assignments = list(scope.assignments[call.func.value.value]) if scope else []
    parents = _parents(module)
    target = getattr(assignments[0], "node", None) if len(assignments) == 1 else None
    assign = parents.get(parents.get(target))
    if not (isinstance(assign, cst.Assign) and isinstance(assign.value, cst.Call)):
        return False
    made = assign.value
    if "torch.optim.SGD" not in {q.name for q in scope.get_qualified_names_for(made.func)}:
        return False
    stateful = {"momentum", "weight_decay", "nesterov", "dampening"}
    return all(a.keyword is None and i < 2 or a.keyword is not None and (
        a.keyword.value not in stateful or
        isinstance(a.value, (cst.Integer, cst.Float)) and float(a.value.value) == 0)
        for i, a in enumerate(made.args))


# --- HARP303: wrap the loop in torch.inference_mode() --------------------------------


def fix_missing_no_grad(module, positions, hint):
    loop = _at(positions, hint.span, (cst.For, cst.While))
    if _module_alias(module, "torch") != "torch":
        raise Decline("`torch` is not imported as `torch` at module level")
    parents = _parents(module)
    stmt, _ = _statement_of(loop, parents)
    wrapped = cst.With(
        items=[cst.WithItem(cst.parse_expression("torch.inference_mode()"))],
        body=cst.IndentedBlock(body=[stmt.with_changes(leading_lines=[])]),
        leading_lines=stmt.leading_lines)
    return module.deep_replace(stmt, wrapped)


def _no_backward_risk(hint) -> str:
    risk = next((a.risk for a in hint.assumptions if a.kind == "no-backward"), "high")
    return "safe" if risk == "low" else "unsafe"


# --- HARP202: hoist a loop-invariant conversion before the loop ----------------------


class _Names(cst.CSTVisitor):
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
        self.stored.update(_bound_names(node.target))

    def visit_AugAssign(self, node):
        self.stored.update(_bound_names(node.target))

    def visit_AnnAssign(self, node):
        self.stored.update(_bound_names(node.target))

    def visit_NamedExpr(self, node):
        self.stored.update(_bound_names(node.target))


def _bound_names(target) -> set[str]:
    """The names an assignment target binds: `a`, and `a, (b, *c)`; not `a.x` or `a[i]`."""
    if isinstance(target, cst.Name):
        return {target.value}
    if isinstance(target, (cst.Tuple, cst.List)):
        return set().union(*(_bound_names(e.value) for e in target.elements))
    if isinstance(target, cst.StarredElement):
        return _bound_names(target.value)
    return set()


def _names(nodes) -> _Names:
    v = _Names()
    for n in nodes:
        n.visit(v)
    return v


def _loop_body_statement(call, parents):
    """For a call that is the value of a one-statement line directly in a loop body:
    (that line, its small statement, the body block, the loop); else small is None."""
    stmt, block = _statement_of(call, parents)
    loop = parents.get(block)
    small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and \
        len(stmt.body) == 1 else None
    if not isinstance(loop, (cst.For, cst.While)) or getattr(small, "value", None) is not call:
        small = None
    return stmt, small, block, loop


def _enclosing_loop(node, parents):
    while node in parents:
        node = parents[node]
        if isinstance(node, (cst.For, cst.While)):
            return node
        if isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            break
    raise Decline("not inside a loop")


def _fresh_name(module: cst.Module, base: str) -> str:
    used = _names([module]).loaded
    name, n = base, 1
    while name in used:
        n += 1
        name = f"{base}_{n}"
    return name


def fix_loop_invariant(module, positions, hint):
    """Hoist the invariant computation or conversion: the whole statement when it is
    `name = call`, else the call into a new variable before the loop."""
    try:
        return _hoist(module, positions, hint, "computation")
    except _NotWholeStatement:
        pass
    call = _at(positions, hint.span, cst.Call)
    return _hoist_expression(module, call, _parents(module))


def _runs_every_step(node, loop, parents) -> None:
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
            skips = _exits(earlier, ("continue", "break", "return", "raise"))
            if skips:
                raise Decline(f"a {skips[0]} before it can skip it: before the loop it "
                              f"would run when the original does not")
        child = parent


_EXIT_KINDS = {cst.Continue: "continue", cst.Break: "break", cst.Return: "return",
               cst.Raise: "raise", cst.Yield: "yield"}


def _exits(nodes, kinds: tuple[str, ...]) -> list[str]:
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
            kind = _EXIT_KINDS.get(type(node))
            if kind in kinds and not (self.loops and kind in ("break", "continue")):
                found.append(f"`{kind}`")
            return True

        def on_leave(self, node):
            if isinstance(node, (cst.For, cst.While)):
                self.loops -= 1

    for node in nodes:
        node.visit(Exits())
    return found


def _hoist_expression(module, call, parents, before=()):
    """Compute `call` once into a new variable just before its loop (after the statements
    `before`) and use the variable in the loop."""
    loop = _enclosing_loop(call, parents)
    _runs_every_step(call, loop, parents)
    _changed_by_calls(module, call)
    func = call.func.attr.value if isinstance(call.func, cst.Attribute) else \
        getattr(call.func, "value", "value")
    name = _fresh_name(module, f"{func}_hoisted")
    loop_stmt, _ = _statement_of(loop, parents)
    assign = cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(cst.Name(name))], call)])
    first, *rest = [*before, assign]
    first = first.with_changes(leading_lines=loop_stmt.leading_lines)
    new_loop = loop_stmt.deep_replace(call, cst.Name(name)).with_changes(leading_lines=[])
    return module.deep_replace(loop_stmt, cst.FlattenSentinel([first, *rest, new_loop]))


class _NotWholeStatement(Decline):  # noqa: N818
    pass


def _only_names(target) -> bool:
    """`a` or `a, b` (names only, no attributes, items or stars)."""
    if isinstance(target, (cst.Tuple, cst.List)):
        return all(isinstance(e, cst.Element) and _only_names(e.value)
                   for e in target.elements)
    return isinstance(target, cst.Name)


def _only_around(expr, call) -> bool:
    """Whether `call` is the only call in `expr` (`grads = tf.gradients(l, [w])[0]`): what
    surrounds it is plain indexing and arithmetic, safe to move with it."""
    calls = []

    class Calls(cst.CSTVisitor):
        def visit_Call(self, node):
            calls.append(node)
            return False  # what the call computes was proved by the pass

    expr.visit(Calls())
    return calls == [call]


def _hoist(module, positions, hint, what):
    """Move `name = <call at the hint>` from a loop body to just before the loop."""
    call = _at(positions, hint.span, cst.Call)
    parents = _parents(module)
    stmt, block = _statement_of(call, parents)
    loop = parents.get(block)
    small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and \
        len(stmt.body) == 1 else None
    if not (isinstance(loop, (cst.For, cst.While)) and isinstance(small, cst.Assign)
            and len(small.targets) == 1 and _only_names(small.targets[0].target)
            and (small.value is call or _only_around(small.value, call)
                 and not _names([small.value]).loaded & _loop_writes(loop))):
        raise _NotWholeStatement(f"only `name = {what}(...)` statements directly in the "
                                 f"loop body are hoisted")
    body = list(block.body)
    index = body.index(stmt)
    others = body[:index] + body[index + 1:]
    _runs_every_step(stmt, loop, parents)
    _changed_by_calls(module, small.value)
    for target in sorted(_bound_names(small.targets[0].target)):
        if target in _names(others).stored:
            raise Decline(f"`{target}` is assigned elsewhere in the loop")
        if target in _names(body[:index]).loaded:
            raise Decline(f"`{target}` is read in the loop before it is assigned")
    loop_targets = _names([loop.target]).loaded if isinstance(loop, cst.For) else set()
    if loop_targets & _names([call]).loaded:
        raise Decline(f"the {what} reads the loop variable")
    loop_stmt, _ = _statement_of(loop, parents)
    new_body = block.with_changes(body=others or [cst.SimpleStatementLine([cst.Pass()])])
    new_loop = loop.with_changes(body=new_body)
    hoisted = stmt.with_changes(leading_lines=loop_stmt.leading_lines)
    new_loop = new_loop.with_changes(leading_lines=[])
    return module.deep_replace(loop_stmt, cst.FlattenSentinel([hoisted, new_loop]))


# --- HARP402: accumulate pieces in a list, concatenate once after the loop ---------------


def fix_concat_in_loop(module, positions, hint):
    call = _at(positions, hint.span, cst.Call)
    parents = _parents(module)
    stmt, small, block, loop = _loop_body_statement(call, parents)
    if not (isinstance(small, cst.Assign) and isinstance(small.targets[0].target, cst.Name)):
        raise Decline("only `acc = cat([acc, piece])` directly in the loop body is rewritten")
    acc = small.targets[0].target.value
    first = call.args[0].value if call.args else None
    if not (isinstance(first, (cst.List, cst.Tuple)) and len(first.elements) == 2 and
            isinstance(first.elements[0].value, cst.Name) and
            first.elements[0].value.value == acc and
            not isinstance(first.elements[1], cst.StarredElement)):
        raise Decline(f"the pieces are not `[{acc}, piece]` (only appending is rewritten)")
    others = [s for s in block.body if s is not stmt]
    if acc in _names(others).loaded or acc in _names(others).stored:
        raise Decline(f"`{acc}` is used elsewhere in the loop")
    _keeps_running_value(module, loop, parents, acc)
    parts = _fresh_name(module, f"{acc}_parts")
    piece = first.elements[1].value
    append = stmt.with_changes(body=[cst.Expr(cst.parse_expression(f"{parts}.append(x)")
                                              .with_changes(args=[cst.Arg(piece)]))])
    new_args = [call.args[0].with_changes(value=cst.Name(parts))] + list(call.args[1:])
    join = cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(cst.Name(acc))],
                                               call.with_changes(args=new_args))])
    loop_stmt, _ = _statement_of(loop, parents)
    start = cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(cst.Name(parts))],
                                                cst.List([cst.Element(cst.Name(acc))]))],
                                    leading_lines=loop_stmt.leading_lines)
    new_loop = loop_stmt.deep_replace(stmt, append).with_changes(leading_lines=[])
    return module.deep_replace(loop_stmt, cst.FlattenSentinel([start, new_loop, join]))


# --- HARP201: accumulate on the device, sync once after the loop -----------------------


def _module_alias(module: cst.Module, library: str) -> str | None:
    """The name `library` is imported as at module level (`import tensorflow as tf`)."""
    for stmt in module.body:
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if isinstance(small, cst.Import):
                    for a in small.names:
                        if dotted_name(a.name) == library:
                            return a.asname.name.value if a.asname else library
    return None


def fix_host_sync(module, positions, hint):
    """`total += t.item()` -> `total += t.detach().double()` in the loop and one `.item()`
    after it. The accumulator keeps Python's arithmetic: a float starting value sums in
    float64 as a Python float does; an int one sums an integer count in int64."""
    call = _at(positions, hint.span, cst.Call)
    parents = _parents(module)
    stmt, small, block, loop = _loop_body_statement(call, parents)
    if not (isinstance(small, cst.AugAssign) and isinstance(small.operator, cst.AddAssign)
            and isinstance(small.target, cst.Name) and isinstance(call.func, cst.Attribute)
            and not call.args):
        raise Decline("only `total += t.item()` / `total += t.numpy()` directly in the loop "
                      "body is rewritten")
    method, total = call.func.attr.value, small.target.value
    library = {"item": "torch", "numpy": "tensorflow"}.get(method)
    alias = _module_alias(module, library) if library else None
    if alias is None:
        raise Decline(f"`.{method}()` accumulation needs `{library or 'torch'}` imported at "
                      f"module level")
    others = [s for s in block.body if s is not stmt]
    if total in _names(others).loaded or total in _names(others).stored:
        raise Decline(f"`{total}` is used elsewhere in the loop, so it must stay a number")
    _keeps_running_value(module, loop, parents, total)
    receiver = call.func.value
    start = _starting_number(block, loop, parents, total)
    if method == "item":
        on_device = cst.Call(cst.Attribute(receiver, cst.Name("detach")))
        if start == "float":
            on_device = cst.Call(cst.Attribute(on_device, cst.Name("double")))
        elif _counts_matches(receiver):
            on_device = cst.Call(cst.Attribute(on_device, cst.Name("long")))
        else:
            raise Decline(f"`{total}` starts as an int and the tensor's dtype is not known: "
                          f"a tensor would accumulate in its own dtype (a float wouldn't "
                          f"become a float64, a uint8 would wrap)")
    else:
        on_device = receiver
        unproved(f"`{module.code_for_node(receiver)}` is a floating tensor (an integer one "
                 f"cannot be added to `{total}` as a tensor)")
    new_loop = loop.deep_replace(call, on_device)
    back = "item" if method == "item" else "numpy"
    sync = cst.parse_statement(
        f"{total} = {total}.{back}() if {alias}.is_tensor({total}) else {total}\n")
    loop_stmt, _ = _statement_of(loop, parents)
    new_stmt = loop_stmt.deep_replace(loop, new_loop) if loop_stmt is not loop else new_loop
    return module.deep_replace(loop_stmt, cst.FlattenSentinel([new_stmt, sync]))


def _keeps_running_value(module, loop, parents, name: str) -> None:
    """Declines when code other than the statements after the loop could see `name` while
    the loop is rewriting it: another scope reading it (a callee, a closure, a
    `nonlocal`), a `return` or `yield` inside the loop, or a handler the loop can raise
    into."""
    elsewhere = _read_elsewhere(module, loop, name)
    if elsewhere:
        raise Decline(f"{elsewhere}, which can run during the loop and would see the "
                      f"rewritten value")
    exits = _exits([loop.body], ("return", "yield"))
    if exits:
        raise Decline(f"the loop can leave by {exits[0]} before the conversion after it runs")
    handler = _handlers_reading(name, loop, parents)
    if handler:
        raise Decline(handler)


def _starting_number(block, loop, parents, name: str) -> str:
    """"float" or "int": the literal `name` is bound to just before the loop, in the same
    block (`total = 0.0`); declines otherwise (its type would not be known)."""
    node, before = loop, []
    while True:  # the statements run before the loop: its block's, then the enclosing ones
        stmt, outer = _statement_of(node, parents)
        body = list(outer.body)
        before = body[:body.index(stmt)] + before
        wrapper = parents.get(outer)
        if any(name in _names([s]).stored for s in before) or not isinstance(
                wrapper, (cst.With, cst.If, cst.Try)):
            break
        node = wrapper
    for stmt in reversed(before):
        if name not in _names([stmt]).stored:
            continue
        small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and \
            len(stmt.body) == 1 else None
        value = small.value if isinstance(small, cst.Assign) and len(small.targets) == 1 \
            and isinstance(small.targets[0].target, cst.Name) else None
        if isinstance(value, cst.UnaryOperation):
            value = value.expression
        if isinstance(value, cst.Float):
            return "float"
        if isinstance(value, cst.Integer):
            return "int"
        break
    raise Decline(f"`{name}` is not set to a number literal just before the loop: the "
                  f"rewrite could not keep its type")


def _counts_matches(expr) -> bool:
    """`(a == b).sum()` / `a.eq(b).sum()`: an integer count (int64 in torch)."""
    if not (isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute)
            and expr.func.attr.value == "sum" and not expr.args):
        return False
    inner = expr.func.value
    if isinstance(inner, cst.Comparison):
        return True
    return isinstance(inner, cst.Call) and isinstance(inner.func, cst.Attribute) and \
        inner.func.attr.value in ("eq", "ne", "lt", "le", "gt", "ge")


# --- HARP101: TF1 graph construction in a loop that runs the graph --------------------


def fix_graph_built_in_loop(module, positions, hint):
    """Build the op once before the loop. A changing value it was built from (the new
    value of `tf.assign`) becomes a placeholder fed on each `run`."""
    call = _at(positions, hint.span, cst.Call)
    parents = _parents(module)
    loop = _enclosing_loop(call, parents)
    changing = _names([call]).loaded & _loop_writes(loop)
    if not changing:
        try:
            return _hoist(module, positions, hint, "graph construction")
        except _NotWholeStatement:
            return _hoist_expression(module, call, parents)
    return _feed_changing_value(module, call, parents, loop, changing)


def _feed_changing_value(module, call, parents, loop, changing):
    """`sess.run(tf.assign(w, v))` with `v` new each iteration becomes
    `v_ph = tf.placeholder(w.dtype.base_dtype, w.shape)` and `assign = tf.assign(w, v_ph)`
    before the loop, and `sess.run(assign, feed_dict={v_ph: v})` in it."""
    what = sorted(changing)[0]
    alias = _module_alias(module, "tensorflow.compat.v1")
    if alias is None:
        raise Decline("`tensorflow.compat.v1` is not imported at module level")
    args = [a.value for a in call.args if a.keyword is None]
    ref = value = None
    if dotted_name(call.func) == f"{alias}.assign" and len(args) == len(call.args) == 2:
        ref, value = args
    elif isinstance(call.func, cst.Attribute) and call.func.attr.value == "assign" and \
            len(args) == len(call.args) == 1:
        ref, value = call.func.value, args[0]
    run = parents.get(parents.get(call))
    if not (isinstance(value, cst.Name) and not (_names([ref]).loaded & changing)):
        raise Decline(f"the construction reads `{what}`, which changes every iteration; only "
                      f"the new value of an assign is fed through a placeholder")
    if not (isinstance(run, cst.Call) and isinstance(run.func, cst.Attribute)
            and run.func.attr.value == "run" and run.args[0].value is call):
        raise Decline(f"the assign of `{what}` is not run directly by `Session.run`")
    feed = next((a for a in run.args[1:] if a.keyword is None or
                 a.keyword.value == "feed_dict"), None)
    if feed is not None and not isinstance(feed.value, cst.Dict):
        raise Decline("the run already has a feed that is not a dict display")
    placeholder = _fresh_name(module, f"{value.value}_ph")
    ref_code = module.code_for_node(ref)
    declare = cst.parse_statement(
        f"{placeholder} = {alias}.placeholder({ref_code}.dtype.base_dtype, "
        f"{ref_code}.shape)\n")
    entry = cst.DictElement(cst.Name(placeholder), value)
    if feed is None:
        new_run = run.with_changes(args=[*run.args, cst.Arg(
            cst.Dict([entry]), keyword=cst.Name("feed_dict"),
            equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace("")))])
    else:
        elements = [*feed.value.elements]
        elements[-1] = elements[-1].with_changes(comma=cst.Comma(
            whitespace_after=cst.SimpleWhitespace(" ")))
        new_run = run.deep_replace(feed.value, feed.value.with_changes(
            elements=[*elements, entry]))
    new_call = call.deep_replace(value, cst.Name(placeholder))
    module = module.deep_replace(run, new_run.deep_replace(
        new_run.args[0].value, new_call))
    new_call = next(n for n in _parents(module) if isinstance(n, cst.Call)
                    and n.deep_equals(new_call))
    return _hoist_expression(module, new_call, _parents(module), before=[declare])


# --- HARP103: an eager TF2 training step becomes a tf.function ---------------------------

#: calls that make a step depend on running eagerly (host values, output, Python state)
_EAGER_ONLY = {"print", "float", "int", "bool", "str", "len", "list", "dict", "open",
               "input", "numpy", "item", "append", "extend", "insert", "pop", "update",
               "add", "write", "tolist"}


def _reads_before_writes(statements) -> tuple[set[str], set[str]]:
    """(names read before the statements assign them, names they assign), in order."""
    read, written = set(), set()

    def visit(stmt):
        if isinstance(stmt, cst.With):
            for item in stmt.items:
                read.update(_names([item.item]).loaded - written)
                if item.asname is not None:
                    written.update(_names([item.asname.name]).loaded)
            for inner in stmt.body.body:
                visit(inner)
            return
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if isinstance(small, cst.Assign):
                    read.update(_names([small.value]).loaded - written)
                    for t in small.targets:
                        if isinstance(t.target, (cst.Name, cst.Tuple, cst.List)):
                            written.update(_names([t.target]).loaded)
                        else:
                            read.update(_names([t.target]).loaded - written)
                else:
                    read.update(_names([small]).loaded - written)
            return
        read.update(_names([stmt]).loaded - written)
        written.update(_names([stmt]).stored)

    for stmt in statements:
        visit(stmt)
    return read, written


def _eager_only(statements) -> str:
    """The first construct that only makes sense eagerly ("" if none)."""
    found, flows = [], []

    class Eager(cst.CSTVisitor):
        def visit_Call(self, node):
            name = dotted_name(node.func).rsplit(".", 1)[-1]
            if name in _EAGER_ONLY:
                found.append(f"`{name}(...)`")

        def visit_AugAssign(self, node):
            found.append("an augmented assignment")

        def visit_Global(self, node):
            found.append("`global`")

        def visit_Nonlocal(self, node):
            found.append("`nonlocal`")

        def visit_Return(self, node):
            found.append("`return`")

        def visit_Yield(self, node):
            found.append("`yield`")

        def visit_Break(self, node):
            flows.append("`break`")

        def visit_Continue(self, node):
            flows.append("`continue`")

    for stmt in statements:
        stmt.visit(Eager())
        found += sorted(set(flows))  # after the statement's other findings, as reported
        flows.clear()
    return found[0] if found else ""


def fix_eager_step(module, positions, hint):
    """Move the tape block, and the statements after it that apply its gradients, into a
    `@tf.function` defined before the outermost loop; call it in the loop."""
    tape = _at(positions, hint.span, cst.With)
    parents = _parents(module)
    block = parents.get(tape)
    loop = parents.get(block)
    if not isinstance(loop, (cst.For, cst.While)):
        raise Decline("only a tape block directly in the loop body is compiled")
    alias = _module_alias(module, "tensorflow")
    if alias is None:
        raise Decline("`tensorflow` is not imported at module level")
    body = list(block.body)
    start = body.index(tape)
    step = [tape]
    for stmt in body[start + 1:]:
        if not isinstance(stmt, cst.SimpleStatementLine) or _eager_only([stmt]):
            break
        read, _ = _reads_before_writes([stmt])
        if not read & _reads_before_writes(step)[1]:
            break  # does not use what the step computed
        step.append(stmt)
    why = _eager_only(step)
    if why:
        raise Decline(f"the step uses {why}, which must run eagerly")
    loops = [loop]
    node = loop
    while node in parents and not isinstance(node, (cst.FunctionDef, cst.ClassDef)):
        node = parents[node]
        if isinstance(node, (cst.For, cst.While)):
            loops.append(node)
    loop_written = set().union(*(_loop_writes(lp) for lp in loops))
    read, written = _reads_before_writes(step)
    params = sorted(read & loop_written)
    for lp in loops:
        counters = set(params) & _names([lp.target]).loaded if isinstance(lp, cst.For) and \
            isinstance(lp.iter, cst.Call) and dotted_name(lp.iter.func) == "range" else set()
        if counters:
            raise Decline(f"the step reads the loop counter `{sorted(counters)[0]}`: a new "
                          f"Python number each step would retrace the function")
    _traces_the_same(module, step, params, written)
    rest = body[:start] + body[start + len(step):]
    elsewhere = _statements_outside(module, step)
    tape_name = {n for item in tape.items if item.asname is not None
                 for n in _names([item.asname.name]).loaded}
    used_later = written & (_names(rest).loaded | _names(elsewhere).loaded)
    if used_later & tape_name:
        raise Decline(f"the tape `{sorted(tape_name)[0]}` is used outside the step")
    results = sorted(used_later - tape_name)
    name = _fresh_name(module, "train_step")
    comments = [line for line in tape.leading_lines if line.comment is not None]
    statements = [step[0].with_changes(leading_lines=[]), *step[1:]]
    if results:
        statements.append(cst.parse_statement(f"return {', '.join(results)}\n"))
    definition = cst.FunctionDef(
        name=cst.Name(name),
        params=cst.Parameters([cst.Param(cst.Name(p)) for p in params]),
        body=cst.IndentedBlock(statements),
        decorators=[cst.Decorator(cst.parse_expression(f"{alias}.function"))],
        leading_lines=comments)
    call = f"{name}({', '.join(params)})"
    invoke = cst.parse_statement(f"{', '.join(results)} = {call}\n" if results
                                 else f"{call}\n")
    new_block = block.with_changes(body=[*body[:start], invoke, *body[start + len(step):]])
    outer_stmt, _ = _statement_of(loops[-1], parents)
    new_outer = outer_stmt.deep_replace(block, new_block)
    definition = definition.with_changes(leading_lines=[*outer_stmt.leading_lines,
                                                        *comments])
    return module.deep_replace(outer_stmt, cst.FlattenSentinel([
        definition, new_outer.with_changes(leading_lines=[])]))


_MUTATORS = frozenset({"append", "extend", "insert", "pop", "update", "setdefault",
                       "clear", "remove", "popitem", "__setitem__"})


def _traces_the_same(module, step, params, written) -> None:
    """Declines when a `tf.function` of the step would not compute what the eager step
    does: it reads Python state that changes (an element of a container the program
    changes, a name a function rebinds: a trace bakes in what it read), draws Python or
    numpy random numbers (drawn once, when it traces), or takes a Python number that is
    new every step (a retrace on every call)."""
    numpy, mutated = _module_alias(module, "numpy"), _mutated_containers(module)
    for node in _walk(cst.Module(body=list(step))):
        if isinstance(node, cst.Subscript) and isinstance(node.value, cst.Name) and \
                node.value.value not in written and node.value.value in mutated:
            raise Decline(f"the step reads an element of `{node.value.value}`, a Python "
                          f"container the program changes: a tf.function reads it once, "
                          f"when it traces")
        if isinstance(node, cst.Call):
            name = dotted_name(node.func)
            if name.startswith("random.") or numpy and name.startswith(f"{numpy}.random."):
                raise Decline(f"the step draws random numbers with `{name}`: a tf.function "
                              f"draws them once, when it traces (use `tf.random`)")
    numbers = sorted(set(params) & _number_names(module))
    if numbers:
        raise Decline(f"the step reads `{numbers[0]}`, a Python number that changes every "
                      f"step: each new value would retrace the function")
    read, _ = _reads_before_writes(step)
    for name in sorted(read - set(params)):
        assigned = _assigned_elsewhere(module, step[0], name)
        if assigned:
            raise Decline(f"{assigned}: a tf.function would keep the value it traced")


def _mutated_containers(module) -> set[str]:
    """Names the program changes through an item or a mutating method (`d[k] = v`,
    `xs.append(v)`, `xs[0] += 1`)."""
    found = set()
    for node in _walk(module):
        targets = [t.target for t in node.targets] if isinstance(node, cst.Assign) else \
            [node.target] if isinstance(node, (cst.AugAssign, cst.AnnAssign)) else []
        for target in targets:
            if isinstance(target, cst.Subscript) and isinstance(target.value, cst.Name):
                found.add(target.value.value)
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and \
                node.func.attr.value in _MUTATORS and isinstance(node.func.value, cst.Name):
            found.add(node.func.value.value)
    return found


def _statements_outside(module, step):
    """Every statement of the module that is not inside one of `step`."""
    inside = set()

    class Mark(cst.CSTVisitor):
        def on_visit(self, node):
            inside.add(node)
            return True

    for s in step:
        s.visit(Mark())
    found = []

    class Collect(cst.CSTVisitor):
        def on_visit(self, node):
            if node in inside:
                return False
            if isinstance(node, cst.SimpleStatementLine):
                found.append(node)
            return True

    module.visit(Collect())
    return found


# --- HARP102: a tf.function retraced in a loop ------------------------------------------


def _free_names(node) -> set[str]:
    """The names a def or lambda reads that it does not bind itself (its closure and
    globals): a trace bakes their values in."""
    v = _names([node])
    params = set()
    if isinstance(node, (cst.FunctionDef, cst.Lambda)):
        params = {p.name.value for p in _all_params(node.params)}
    return v.loaded - v.stored - params


def _all_params(params: cst.Parameters):
    star = [params.star_arg] if isinstance(params.star_arg, cst.Param) else []
    kwargs = [params.star_kwarg] if params.star_kwarg else []
    return [*params.posonly_params, *params.params, *star, *params.kwonly_params, *kwargs]


def _loop_writes(loop) -> set[str]:
    """The names a loop rebinds: its target and every name assigned or defined in it."""
    written = _names([loop.body]).stored
    if isinstance(loop, cst.For):
        written |= _names([loop.target]).loaded

    class Defs(cst.CSTVisitor):
        def visit_FunctionDef(self, node):
            written.add(node.name.value)

        def visit_ClassDef(self, node):
            written.add(node.name.value)

        def visit_Import(self, node):
            written.update(dotted_name(a.asname.name if a.asname else a.name).split(".")[0]
                           for a in node.names)

        def visit_For(self, node):
            written.update(_names([node.target]).loaded)

        def visit_With(self, node):
            for item in node.items:
                if item.asname is not None:
                    written.update(_names([item.asname.name]).loaded)

    loop.body.visit(Defs())
    return written


def _hoist_definition(module, def_stmt, parents):
    """Move a `def` (with its decorators) from a loop body to just before the loop."""
    block = parents.get(def_stmt)
    loop = parents.get(block)
    if not isinstance(loop, (cst.For, cst.While)):
        raise Decline("only a definition directly in the loop body is hoisted")
    name = def_stmt.name.value
    body = list(block.body)
    index = body.index(def_stmt)
    others = body[:index] + body[index + 1:]
    if name in _names(body[:index]).loaded:
        raise Decline(f"`{name}` is read in the loop before it is defined")
    changing = (_free_names(def_stmt) - {name}) & _loop_writes(loop)
    if changing:
        raise Decline(f"the function reads `{sorted(changing)[0]}`, which the loop changes: "
                      f"each trace bakes in its value")
    if others and index == 0:  # the new first statement starts right after the header
        others[0] = others[0].with_changes(leading_lines=[
            line for line in others[0].leading_lines if line.comment is not None])
    loop_stmt, _ = _statement_of(loop, parents)
    new_loop = loop.with_changes(body=block.with_changes(
        body=others or [cst.SimpleStatementLine([cst.Pass()])]), leading_lines=[])
    comments = [line for line in def_stmt.leading_lines if line.comment is not None]
    hoisted = def_stmt.with_changes(leading_lines=[*loop_stmt.leading_lines, *comments])
    return module.deep_replace(loop_stmt, cst.FlattenSentinel([hoisted, new_loop]))


def fix_retracing(module, positions, hint):
    """Hoist a `@tf.function` def or a `tf.function(...)` out of the loop, or pass the
    changing Python number as a tensor."""
    defs = [n for n, r in positions.items() if isinstance(n, cst.FunctionDef)
            and r.start.line == hint.span.line]
    parents = _parents(module)
    if defs:
        return _hoist_definition(module, defs[0], parents)
    call = _at(positions, hint.span, cst.Call)
    if dotted_name(call.func).endswith("function"):  # `f = tf.function(g)` in the loop
        loop = _enclosing_loop(call, parents)
        changing = set().union(*(_free_names(a.value) for a in call.args)) & \
            _loop_writes(loop)
        if changing:
            raise Decline(f"the function reads `{sorted(changing)[0]}`, which the loop "
                          f"changes: each trace bakes in its value")
        return _hoist(module, positions, hint, "tf.function")
    subject = next((a.subject for a in hint.assumptions if a.kind == "tensor-argument"), "")
    alias = _module_alias(module, "tensorflow")
    if alias is None:
        raise Decline("`tensorflow` is not imported at module level")
    arg = next((a for a in call.args if module.code_for_node(a.value) == subject), None)
    if arg is None:
        raise Decline(f"no argument `{subject}` in the call")
    if not _only_cast(module, call, arg):
        unproved(f"an int32 or float32 tensor suits every op the function gives `{subject}` "
                 f"(a Python number takes the dtype each op needs, such as int64)")
    tensor = cst.parse_expression(f"{alias}.constant(x)").with_changes(
        args=[cst.Arg(arg.value)])
    return module.deep_replace(arg, arg.with_changes(value=tensor))


def _only_cast(module, call, arg) -> bool:
    """Whether the called function, defined in this module, uses the parameter `arg`
    binds only as the value of `tf.cast(param, dtype)`: any tensor dtype then gives the
    same result a Python number does."""
    name = dotted_name(call.func)
    defs = [n for n in _walk(module) if isinstance(n, cst.FunctionDef) and
            n.name.value == name]
    if len(defs) != 1:
        return False
    params = _all_params(defs[0].params)
    index = list(call.args).index(arg)
    if arg.keyword is not None:
        param = next((p for p in params if p.name.value == arg.keyword.value), None)
    else:
        param = params[index] if index < len(params) and not arg.star else None
    if param is None:
        return False
    parents = _parents(defs[0])
    uses = [n for n in _walk(defs[0].body) if isinstance(n, cst.Name) and
            n.value == param.name.value]
    for use in uses:
        argument = parents.get(use)
        cast = parents.get(argument)
        if not (isinstance(argument, cst.Arg) and isinstance(cast, cst.Call) and
                dotted_name(cast.func).endswith(".cast") and cast.args[0] is argument):
            return False
    return bool(uses)


def _walk(node):
    """Every node under `node`, `node` first."""
    found = []

    class All(cst.CSTVisitor):
        def on_visit(self, n):
            found.append(n)
            return True

    node.visit(All())
    return found


def _tensor_argument_risk(hint) -> str:
    risks = [a.risk for a in hint.assumptions if a.kind == "tensor-argument"]
    return "safe" if all(r == "low" for r in risks) else "unsafe"


# --- HARP401: a per-element Python loop becomes one vectorized op ------------------------

#: element-wise functions (by the name after the framework alias) and tensor methods: on a
#: row of a tensor they compute that row of the function on the whole tensor
ELEMENTWISE_FUNCTIONS = {
    "torch": {"exp", "log", "log1p", "sigmoid", "tanh", "relu", "abs", "sqrt", "rsqrt", "sin",
              "cos", "square", "clamp", "floor", "ceil", "round", "sign", "erf",
              "nn.functional.relu", "nn.functional.sigmoid", "nn.functional.gelu",
              "nn.functional.silu", "nn.functional.softplus", "nn.functional.leaky_relu"},
    "tensorflow": {"exp", "math.exp", "math.log", "math.log1p", "sigmoid", "math.sigmoid",
                   "tanh", "math.tanh", "nn.relu", "nn.sigmoid", "nn.gelu", "nn.silu",
                   "nn.softplus", "abs", "math.abs", "sqrt", "math.sqrt", "square",
                   "math.square", "math.sin", "math.cos", "clip_by_value", "math.floor",
                   "math.round", "math.sign"},
}
ELEMENTWISE_METHODS = {"exp", "log", "log1p", "sigmoid", "tanh", "relu", "abs", "sqrt",
                       "rsqrt", "sin", "cos", "square", "clamp", "floor", "ceil", "round",
                       "sign", "pow", "erf"}
_ELEMENTWISE_OPERATORS = (cst.Add, cst.Subtract, cst.Multiply, cst.Divide, cst.Power,
                          cst.MatrixMultiply)


class _Vectorize(cst.CSTTransformer):
    """Rewrites an element expression into the whole-tensor one: `x[i]` -> `x` (or
    `y[:n]`), the loop element `v` -> the tensor; declines on anything that is not
    element-wise in the visited dimension."""

    def __init__(self, var, whole, tensors, scalars, aliases):
        self.var, self.whole, self.tensors = var, whole, tensors
        self.scalars, self.aliases = scalars, aliases
        self.frameworks: set[str] = set()

    def framework(self) -> str | None:
        """The library of the tensors: from the functions used, else the only import."""
        libraries = self.frameworks or set(self.aliases.values())
        return next(iter(libraries)) if len(libraries) == 1 else None

    def alias(self, library: str) -> str:
        return next(a for a, lib in self.aliases.items() if lib == library)

    def vectorize(self, expr):
        self._check(expr)
        return expr.visit(self)

    def _check(self, node):
        if isinstance(node, (cst.Integer, cst.Float)):
            return
        if isinstance(node, cst.Name):
            if node.value == self.var and isinstance(self.whole, dict):
                raise Decline(f"the loop index `{self.var}` is used as a number")
            if node.value not in self.scalars and not (
                    node.value == self.var and not isinstance(self.whole, dict)):
                raise Decline(f"cannot tell that `{node.value}` is a number: a tensor "
                              f"would broadcast differently over the whole tensor")
            return
        if isinstance(node, cst.Subscript):
            if not (isinstance(self.whole, dict) and _element_of(node, self.var) in
                    self.tensors):
                raise Decline(f"`{cst.Module([]).code_for_node(node)}` is not an element "
                              f"`t[{self.var}]` of a tensor the loop visits")
            return
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
            return self._check(node.expression)
        if isinstance(node, cst.BinaryOperation) and \
                isinstance(node.operator, _ELEMENTWISE_OPERATORS):
            if isinstance(node.operator, cst.MatrixMultiply):
                self._check(node.left)
                if not dotted_name(node.right) or \
                        _names([node.right]).loaded & {self.var, *self.tensors}:
                    raise Decline("only `row @ W` with an invariant `W` is vectorized")
                return
            self._check(node.left)
            return self._check(node.right)
        if isinstance(node, cst.Call) and node.args:
            func = dotted_name(node.func)
            head, _, rest = func.partition(".")
            library = self.aliases.get(head)
            if library and rest in ELEMENTWISE_FUNCTIONS[library]:
                self.frameworks.add(library)
                self._check(node.args[0].value)
                for a in node.args[1:]:
                    self._check(a.value)
                return
            if isinstance(node.func, cst.Attribute) and \
                    node.func.attr.value in ELEMENTWISE_METHODS and \
                    not (isinstance(node.func.value, cst.Name) and node.func.value.value
                         in self.aliases):
                self._check(node.func.value)
                for a in node.args:
                    self._check(a.value)
                return
        if isinstance(node, cst.Call) and not node.args and isinstance(
                node.func, cst.Attribute) and node.func.attr.value in ELEMENTWISE_METHODS:
            return self._check(node.func.value)
        raise Decline(f"`{cst.Module([]).code_for_node(node)}` is not known to be "
                      f"element-wise")

    def leave_Subscript(self, original, updated):
        base = original.value.value
        whole = self.whole.get(base) if isinstance(self.whole, dict) else None
        return whole if whole is not None else updated

    def leave_Name(self, original, updated):
        if original.value == self.var and not isinstance(self.whole, dict):
            return self.whole
        return updated


def _element_of(subscript: cst.Subscript, var: str) -> str:
    """`t` for `t[var]` (a name indexed by exactly the loop variable), else ""."""
    index = subscript.slice[0].slice if len(subscript.slice) == 1 else None
    if isinstance(subscript.value, cst.Name) and isinstance(index, cst.Index) and \
            isinstance(index.value, cst.Name) and index.value.value == var:
        return subscript.value.value
    return ""


def _number_names(module) -> set[str]:
    """Names that are only ever bound to numbers (`lr = 0.1`, `scale = 2 * 3`,
    `mean = float(x.mean())`)."""
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
                    bound.update(dict.fromkeys(_bound_names(t.target), False))

        def visit_AugAssign(self, node):
            if isinstance(node.target, cst.Name):
                bound[node.target.value] = bound.get(node.target.value, True) and \
                    numeric(node.value)

        def visit_Param(self, node):
            bound[node.name.value] = False

        def visit_For(self, node):
            for n in _names([node.target]).loaded:
                bound[n] = False

    module.visit(Bindings())
    return {n for n, only_numbers in bound.items() if only_numbers}


def _range_bound(loop) -> tuple[cst.BaseExpression, str] | None:
    """For `for i in range(len(x))` / `range(x.shape[0])` / `range(x.size(0))`: the bound
    expression and the tensor it is the length of ("" when it is not one's length)."""
    it = loop.iter
    if not (isinstance(it, cst.Call) and dotted_name(it.func) == "range" and
            len(it.args) == 1 and it.args[0].keyword is None):
        return None
    bound = it.args[0].value
    code = cst.Module([]).code_for_node(bound)
    for form in ("len({})", "{}.shape[0]", "{}.size(0)", "len({}.shape) and {}.shape[0]"):
        for name in _names([bound]).loaded:
            if code == form.format(name, name):
                return bound, name
    return bound, ""


def fix_elementwise_loop(module, positions, hint):
    loop = _at(positions, hint.span, cst.For)
    if loop.orelse is not None or loop.asynchronous is not None:
        raise Decline("a loop with `else` or `async for` is not rewritten")
    body = loop.body.body
    if not (len(body) == 1 and isinstance(body[0], cst.SimpleStatementLine)
            and len(body[0].body) == 1):
        raise Decline("only a loop body of one statement is vectorized")
    small = body[0].body[0]
    if not isinstance(loop.target, cst.Name):
        raise Decline("the loop target is not a single name")
    var = loop.target.value
    parents = _parents(module)
    loop_stmt, block = _statement_of(loop, parents)
    statements = list(block.body)
    after = [s for s in statements[statements.index(loop_stmt) + 1:]
             if not (isinstance(s, cst.For) and _names([s.target]).loaded == {var}
                     and var not in _names([s.iter]).loaded)]  # rebinds it first
    if var in _names(after).loaded:
        raise Decline(f"`{var}` is read after the loop")
    tensors = {a.subject for a in hint.assumptions if a.kind == "tensor"}
    aliases = {alias: lib for lib in ("torch", "tensorflow")
               if (alias := _module_alias(module, lib))}
    ranged = _range_bound(loop)
    if ranged is not None:
        bound, sized = ranged
        whole = {t: (cst.Name(t) if t == sized else cst.Subscript(cst.Name(t), [
            cst.SubscriptElement(cst.Slice(lower=None, upper=bound))])) for t in tensors}
        n = bound
    elif isinstance(loop.iter, cst.Name) and loop.iter.value in tensors:
        whole, n = loop.iter, cst.Call(cst.Name("len"), [cst.Arg(loop.iter)])
    else:
        raise Decline("only `for i in range(len(x))` or `for v in x` over a tensor is "
                      "vectorized")
    vec = _Vectorize(var, whole, tensors, _number_names(module) - {var}, aliases)
    if isinstance(small, cst.Assign) and len(small.targets) == 1 and \
            isinstance(small.targets[0].target, cst.Subscript) and ranged is not None:
        target = small.targets[0].target
        out = _element_of(target, var)
        if not out:
            raise Decline(f"the loop writes something other than `out[{var}]`")
        if out not in tensors and out in _names([small.value]).loaded:
            raise Decline(f"`{out}` is read in the loop")
        if out not in tensors and not _freshly_allocated(module, loop, out):
            raise Decline(f"`{out}` is not bound once, to new memory (`torch.zeros(...)` "
                          f"and the like): it may share memory with what the loop reads")
        vec.tensors = tensors | {out}
        value = vec.vectorize(small.value)
        new_target = target.with_changes(slice=[cst.SubscriptElement(
            cst.Slice(lower=None, upper=n))])
        new = small.with_changes(targets=[small.targets[0].with_changes(target=new_target)],
                                 value=value)
    elif isinstance(small, cst.Expr) and isinstance(small.value, cst.Call) and \
            isinstance(small.value.func, cst.Attribute) and \
            small.value.func.attr.value == "append" and len(small.value.args) == 1:
        acc = small.value.func.value
        if _names([acc]).loaded & (_names([small.value.args[0]]).loaded | {var}):
            raise Decline("the appended value reads the list it is appended to")
        value = vec.vectorize(small.value.args[0].value)
        if vec.framework() == "tensorflow":  # one op; iterating an EagerTensor is one per row
            unstack = cst.parse_expression(f"{vec.alias('tensorflow')}.unstack(e)")
            value = unstack.with_changes(args=[cst.Arg(value)])
        new = small.with_changes(value=small.value.with_changes(
            func=small.value.func.with_changes(attr=cst.Name("extend")),
            args=[cst.Arg(value)]))
    else:
        new = _vectorized_sum(small, vec)
    if var in _names([new]).loaded and ranged is not None:
        raise Decline(f"the loop index `{var}` is used as a number")
    replacement = body[0].with_changes(body=[new], leading_lines=loop_stmt.leading_lines)
    return module.deep_replace(loop_stmt, replacement)


def _freshly_allocated(module, loop, name: str) -> bool:
    """Whether `name` is bound once in the loop's scope, by `name = f(...)` with `f` a
    catalogued fresh allocation (libcst's scope and qualified-name analyses)."""
    scope = _scopes(module).get(loop)
    assignments = list(scope.assignments[name]) if scope is not None else []
    if len(assignments) != 1:
        return False
    parents = _parents(module)
    target = getattr(assignments[0], "node", None)
    assign = parents.get(parents.get(target))
    if not (isinstance(assign, cst.Assign) and len(assign.targets) == 1 and
            assign.targets[0].target is target and isinstance(assign.value, cst.Call)):
        return False
    names = {q.name for q in scope.get_qualified_names_for(assign.value.func)}
    return bool(names & catalogue.load().fresh_allocations)


def _vectorized_sum(small, vec):
    """`acc += e(x[i])` / `acc = acc + e(x[i])` -> one reduction over the visited dim."""
    if isinstance(small, cst.AugAssign) and isinstance(small.operator, cst.AddAssign) and \
            isinstance(small.target, cst.Name):
        acc, term = small.target.value, small.value
    elif isinstance(small, cst.Assign) and len(small.targets) == 1 and \
            isinstance(small.targets[0].target, cst.Name) and \
            isinstance(small.value, cst.BinaryOperation) and \
            isinstance(small.value.operator, cst.Add) and \
            isinstance(small.value.left, cst.Name) and \
            small.value.left.value == small.targets[0].target.value:
        acc, term = small.value.left.value, small.value.right
    else:
        raise Decline("only `out[i] = e(x[i])`, `acc.append(e(x[i]))` and `acc += e(x[i])` "
                      "are vectorized")
    if acc in _names([term]).loaded:
        raise Decline(f"each term reads `{acc}`: the iterations depend on each other")
    unproved(f"the tensor is not empty and not of an integer dtype (an empty one leaves "
             f"`{acc}` as it was, not a tensor; an integer sum promotes to int64)")
    value = vec.vectorize(term)
    library = vec.framework()
    if library is None:
        raise Decline("cannot tell whether the tensor is a torch or a TensorFlow tensor")
    if library == "tensorflow":
        total = cst.parse_expression(f"{vec.alias(library)}.reduce_sum(e, axis=0)")
        total = total.with_changes(args=[cst.Arg(value), *total.args[1:]])
    else:
        if not isinstance(value, (cst.Name, cst.Attribute, cst.Subscript, cst.Call)):
            value = value.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
        total = cst.Call(cst.Attribute(value, cst.Name("sum")), [cst.Arg(cst.Integer("0"))])
    if isinstance(small, cst.AugAssign):
        return small.with_changes(value=total)
    return small.with_changes(value=small.value.with_changes(right=total))


# --- HARP205: draw random numbers on the device --------------------------------------

_TORCH_DRAWS = frozenset({"randn", "rand", "randint", "randperm", "normal"})
#: numpy draw -> (parameter names in order, the in-place torch method, its arguments)
_NUMPY_DRAWS = {
    "normal": (("loc", "scale", "size"), "normal_", ("loc", "scale")),
    "uniform": (("low", "high", "size"), "uniform_", ("low", "high")),
    "random": (("size",), "uniform_", ()),
    "random_sample": (("size",), "uniform_", ()),
    "standard_normal": (("size",), "normal_", ()),
    "randint": (("low", "high", "size"), "random_", ("low", "high")),
}
_NUMPY_DEFAULTS = {"loc": "0.0", "scale": "1.0", "low": "0.0", "high": "1.0"}


def fix_host_random(module, positions, hint):
    """`torch.randn(...).to(device)` -> `torch.randn(..., device=device)`;
    `Tensor(np.random.normal(m, s, (b, d)))` -> `Tensor(b, d).normal_(m, s)` (the tensor
    type allocates on its device, the in-place draw fills it there). Unsafe: the numbers
    come from the device's generator, not the host's."""
    call = _at(positions, hint.span, cst.Call)
    if isinstance(call.func, cst.Attribute) and call.func.attr.value in ("to", "cuda"):
        return module.deep_replace(call, _torch_draw_on_device(module, call))
    if len(call.args) != 1 or call.args[0].keyword or call.args[0].star:
        raise Decline("the tensor type is called with more than the drawn array")
    draw = call.args[0].value
    numpy = _module_alias(module, "numpy")
    name = dotted_name(draw.func) if isinstance(draw, cst.Call) else ""
    if numpy is None or not name.startswith(f"{numpy}.random."):
        raise Decline("the drawn array is not a `numpy.random` call written in the "
                      "conversion (it is computed or named elsewhere)")
    method = name.removeprefix(f"{numpy}.random.")
    if method not in _NUMPY_DRAWS:
        raise Decline(f"no in-place torch draw matches `numpy.random.{method}`")
    params, in_place, kept = _NUMPY_DRAWS[method]
    given = _bind(draw, params)
    if "size" not in given:
        raise Decline("no `size`: numpy draws a scalar")
    if method == "randint" and "high" not in given:
        given["low"], given["high"] = cst.Integer("0"), given["low"]
    sizes = _size_arguments(given["size"])
    made = call.with_changes(args=sizes)
    fill = [cst.Arg(given[k] if k in given else cst.parse_expression(_NUMPY_DEFAULTS[k]))
            for k in kept]
    return module.deep_replace(call, cst.Call(cst.Attribute(made, cst.Name(in_place)), fill))


def _bind(call: cst.Call, params: tuple[str, ...]) -> dict:
    """numpy's arguments by parameter name; declines on anything else."""
    given = {}
    for i, arg in enumerate(call.args):
        key = arg.keyword.value if arg.keyword else (params[i] if i < len(params) else "")
        if arg.star or key not in params or key in given:
            raise Decline(f"`{dotted_name(call.func)}` is called with arguments the "
                          f"rewrite does not map (only {', '.join(params)})")
        given[key] = arg.value
    return given


def _size_arguments(size) -> list[cst.Arg]:
    """The tensor type's size arguments for numpy's `size`: the elements of a tuple or
    list, an integer, or `*x.shape` / `*x.size()`."""
    if isinstance(size, (cst.Tuple, cst.List)):
        if any(isinstance(e, cst.StarredElement) for e in size.elements):
            raise Decline("a starred element in `size`")
        return [cst.Arg(e.value) for e in size.elements]
    if isinstance(size, cst.Integer):
        return [cst.Arg(size)]
    if (isinstance(size, cst.Attribute) and size.attr.value == "shape") or (
            isinstance(size, cst.Call) and isinstance(size.func, cst.Attribute) and
            size.func.attr.value == "size" and not size.args):
        return [cst.Arg(size, star="*")]
    raise Decline("`size` is neither a literal tuple, an integer nor a `.shape`: an int "
                  "and a tuple would need different tensor-type arguments")


def _torch_draw_on_device(module, call: cst.Call) -> cst.Call:
    torch = _module_alias(module, "torch")
    factory = call.func.value
    name = dotted_name(factory.func) if isinstance(factory, cst.Call) else ""
    if torch is None or name.removeprefix(f"{torch}.") not in _TORCH_DRAWS or \
            not name.startswith(f"{torch}."):
        raise Decline("the moved tensor is not a torch random factory written in the "
                      "expression")
    if any(a.keyword and a.keyword.value == "device" or a.star for a in factory.args):
        raise Decline("the factory already names a device, or takes `*args`")
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


CODEMODS: dict[str, Codemod] = {
    "HARP103": Codemod("HARP103", lambda h: "safe", fix_eager_step),
    "HARP401": Codemod("HARP401", lambda h: "safe", fix_elementwise_loop),
    "HARP101": Codemod("HARP101", lambda h: "safe", fix_graph_built_in_loop),
    "HARP102": Codemod("HARP102", _tensor_argument_risk, fix_retracing),
    "HARP201": Codemod("HARP201", lambda h: "unsafe" if any(
        a.kind == "hot-loop" for a in h.assumptions) else "safe", fix_host_sync),
    "HARP202": Codemod("HARP202", lambda h: "safe", fix_loop_invariant),
    "HARP205": Codemod("HARP205", lambda h: "unsafe", fix_host_random),
    "HARP301": Codemod("HARP301", lambda h: "safe", fix_loop_invariant),
    "HARP402": Codemod("HARP402", lambda h: "safe", fix_concat_in_loop),
    "HARP303": Codemod("HARP303", _no_backward_risk, fix_missing_no_grad),
    "HARP502": Codemod("HARP502", lambda h: "safe", fix_zero_grad),
}


def apply(source: str, hint) -> tuple[str, list[str]]:
    """The source with `hint` fixed, and the conditions the rewrite needs that were not
    proved (none: the fix is as safe as its hint's assumptions); raises Decline."""
    codemod = CODEMODS.get(hint.id)
    if codemod is None:
        raise Decline(f"no automatic fix for {hint.id} yet")
    module = cst.parse_module(source)
    _unproved.clear()
    new = codemod.apply(module, _positions(module), hint).code
    try:
        cst.parse_module(new)
    except cst.ParserSyntaxError as e:  # never hand back code that does not parse
        raise Decline(f"the rewrite did not parse: {e.message}") from None
    return new, list(_unproved)
