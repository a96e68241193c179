"""--harp-eager-step (HARP103): a TF2 training step run eagerly in a loop.

Finds: a `with tf.GradientTape()` block inside a loop, or in a function of the file that
a loop calls (reported at the tape, naming the function and the loop), in code that no
`tf.function` compiles (neither the enclosing function nor its caller's decorator), whose
body makes no host syncs (so it is graph-compatible). Eager execution dispatches each op from
Python; a `tf.function` runs the whole step as one graph.

Assumes: the step's body is traceable (no Python side effects that must run every
step), which is speculated from the absence of syncs and I/O in the tape block.
"""

from __future__ import annotations

import libcst as cst

from harp_ir import callgraph, catalogue
from harp_ir.analysis import (
    Assumption,
    call_text,
    called_functions,
    describe_loop,
    in_compiled_function,
    loop_of,
    loop_runs,
    paced,
    producer,
    record_hint,
    span,
    steers,
    steps_at_most,
    string_attr,
    strings_attr,
    walk,
)
from harp_ir.callgraph import function_name
from harp_ir.codemods import Decline, node_at, syntax, unproved
from harp_ir.frontend.names import dotted_name
from harp_ir.rules import Fix, HintSpec, Rule

HINT = "HARP103"
TAPE = "tensorflow.GradientTape"


def run(module, pass_=None) -> None:
    for op in walk(module):
        if op.name != "host.with" or TAPE not in strings_attr(op, "harp.contexts"):
            continue
        if in_compiled_function(op, ("tensorflow.function",)):
            continue
        where = loop_of(op)  # a step in a helper: facts across the call
        if where is None:
            continue
        loop, func, site = where
        compiled = func if func is not None else op
        if any(string_attr(o, "effect") == "io" for o in walk(compiled)):
            continue  # output that must happen on every step, not once when traced
        reads = [o for o in walk(compiled) if string_attr(o, "effect") == "sync"
                 or _numpy_on_tensor(o)]
        if any(o.results and steers(o.result, compiled) for o in reads):
            continue  # a host value decides the step's path: tracing cannot follow it
        host_draw = _host_draw(func) if func is not None else None
        if func is None:
            message = (f"the training step under `tf.GradientTape()` runs eagerly on every "
                       f"iteration of {describe_loop(loop)}; move it into a function "
                       f"decorated with `@tf.function` so each step runs as one graph")
        elif host_draw is not None:  # compiled whole, it would freeze the draws at trace time
            name = string_attr(func, "sym_name")
            message = (f"the training step under `tf.GradientTape()` in `{name}` runs eagerly: "
                       f"`{name}` is called on every iteration of {describe_loop(loop)}; "
                       f"`{name}` draws with `{string_attr(host_draw, 'qualname')}` (line "
                       f"{_line(host_draw)}), which a traced `{name}` would draw once, at "
                       f"its first call: move the tape block and the `apply_gradients` after "
                       f"it into a function decorated with `@tf.function` that takes the "
                       f"drawn values as arguments, and call it from `{name}`")
        else:
            name = string_attr(func, "sym_name")
            message = (f"the training step under `tf.GradientTape()` in `{name}` runs eagerly: "
                       f"`{name}` is called on every iteration of {describe_loop(loop)}; "
                       f"decorate `{name}` with `@tf.function` so each step runs as one graph")
        if reads:  # a loss read for logging: the compiled step returns it instead
            named = ", ".join(f"{_read_text(o)} (line {_line(o)})" for o in reads[:3])
            message += (f"; first move its host reads out of it ({named}): return the "
                        f"tensors and read them after the call, with framework ops in "
                        f"place of NumPy on tensors")
        assumptions = [
            Assumption("traceable", describe_loop(loop), "medium", "speculated",
                       "the step has no Python side effects that must run eagerly" if not
                       reads else "its host reads only feed output, accumulators or the "
                       "step's results, so they can move after the compiled call"),
            loop_runs(loop),
            *callgraph.run_rate(site, loop),  # its guards, steps beside it, an evaluation's role
        ]
        waiting = paced(site, loop)  # an environment that sleeps or draws on every step
        if waiting is not None:
            assumptions.append(waiting)
        steps = steps_at_most(loop)
        if steps is not None and steps < _TRACING_PAYS_AFTER:
            assumptions.append(Assumption(
                "hot-loop", describe_loop(loop), "high", "speculated",
                f"the step runs {steps} times in all: tracing it (a fraction of a second) "
                f"costs about what running it eagerly does over so few steps"))
        draw = _random_draw(walk(func) if func is not None else walk(op))
        if draw:
            assumptions.append(Assumption(
                "random-stream", draw, "medium", "speculated",
                f"the step draws with {draw}: traced, each call still draws new numbers, "
                f"but from another stream than the eager calls, so a seeded program's "
                f"numbers change"))
        record_hint(op, HINT, message, assumptions, related=[site] if func is not None else [])


def _host_draw(func):
    """The first NumPy or `random` draw in `func` (a replay batch's `np.random.choice`):
    run once when the function is traced, it would give every later call the same numbers."""
    return next((o for o in walk(func) if string_attr(o, "effect") == "random" and
                 string_attr(o, "qualname").startswith(("numpy.", "random."))), None)


def _numpy_on_tensor(op) -> bool:
    """`np.amax(q)` on a TensorFlow tensor: eager, NumPy converts it on the host; traced,
    the tensor has no value to convert."""
    return op.name == "host.call" and string_attr(op, "qualname").startswith("numpy.") and \
        any(string_attr(producer(v), "harp.kind") == "tensor" for v in list(op.operands)[1:]
            if producer(v) is not None)


def _read_text(op) -> str:
    if _numpy_on_tensor(op):
        return f"`np.{string_attr(op, 'qualname').removeprefix('numpy.')}(...)`"
    return call_text(op)


def _line(op) -> int:
    found = span(op.location)
    return found.line if found is not None else 0


#: steps from which a traced step pays for its tracing (~0.1-0.5 s against ~1-5 ms of
#: eager overhead a step)
_TRACING_PAYS_AFTER = 100


def _random_draw(ops, depth: int = 0, seen: set | None = None) -> str:
    """The first TensorFlow random op the step runs, in its body or in a function of the
    program it calls (a Keras model's `call` drawing the noise of a VAE), named with where
    it is; "" when none."""
    seen = set() if seen is None else seen
    for op in ops:
        if op.name != "host.call":
            continue
        name = string_attr(op, "qualname")
        if string_attr(op, "effect") == "random" and name.startswith("tensorflow."):
            return f"`{name.replace('tensorflow.', 'tf.', 1)}`"
        for func in called_functions(op) if depth < 4 else ():
            key = str(func.location)
            if key in seen:
                continue
            seen.add(key)
            found = _random_draw(walk(func), depth + 1, seen)
            if found:
                return f"{found} in `{function_name(func)}`" if " in `" not in found \
                    else found
    return ""


# --- the fix ------------------------------------------------------------------------------

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
                read.update(syntax.names([item.item]).loaded - written)
                if item.asname is not None:
                    written.update(syntax.names([item.asname.name]).loaded)
            for inner in stmt.body.body:
                visit(inner)
            return
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if isinstance(small, cst.Assign):
                    read.update(syntax.names([small.value]).loaded - written)
                    for t in small.targets:
                        if isinstance(t.target, (cst.Name, cst.Tuple, cst.List)):
                            written.update(syntax.names([t.target]).loaded)
                        else:
                            read.update(syntax.names([t.target]).loaded - written)
                else:
                    read.update(syntax.names([small]).loaded - written)
            return
        read.update(syntax.names([stmt]).loaded - written)
        written.update(syntax.names([stmt]).stored)

    for stmt in statements:
        visit(stmt)
    return read, written


def _eager_only(statements, allow_return: bool = False) -> str:
    """The first construct that only makes sense eagerly ("" if none); `return` is one
    for statements moved out of a loop, not for a function's own body."""
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
            if not allow_return:
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
    for assumption in hint.assumptions:
        if assumption.kind == "random-stream":
            unproved(f"a seeded program's numbers may change: {assumption.reason}")
    tape = node_at(positions, hint.span, cst.With)
    parents = syntax.parents(module)
    block = parents.get(tape)
    loop = parents.get(block)
    alias = syntax.module_alias(module, "tensorflow")
    if isinstance(loop, cst.FunctionDef) and alias is not None:
        return _decorate_step_function(module, loop, alias)
    if not isinstance(loop, (cst.For, cst.While)):
        raise Decline("only a tape block directly in the loop body, or in the body of the "
                      "function the loop calls, is compiled")
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
    _static_shapes(step)
    _numpy_on_results(module, step, _reads_before_writes(step)[1])
    loops = [loop]
    node = loop
    while node in parents and not isinstance(node, (cst.FunctionDef, cst.ClassDef)):
        node = parents[node]
        if isinstance(node, (cst.For, cst.While)):
            loops.append(node)
    loop_written = set().union(*(syntax.loop_writes(lp) for lp in loops))
    read, written = _reads_before_writes(step)
    params = sorted(read & loop_written)
    for lp in loops:
        counters = set(params) & syntax.names([lp.target]).loaded if isinstance(lp, cst.For) and \
            isinstance(lp.iter, cst.Call) and dotted_name(lp.iter.func) == "range" else set()
        if counters:
            raise Decline(f"the step reads the loop counter `{sorted(counters)[0]}`: a new "
                          f"Python number each step would retrace the function")
    _traces_the_same(module, step, params, written)
    rest = body[:start] + body[start + len(step):]
    elsewhere = _statements_outside(module, step)
    tape_name = {n for item in tape.items if item.asname is not None
                 for n in syntax.names([item.asname.name]).loaded}
    used_later = written & (syntax.names(rest).loaded | syntax.names(elsewhere).loaded)
    if used_later & tape_name:
        raise Decline(f"the tape `{sorted(tape_name)[0]}` is used outside the step")
    results = sorted(used_later - tape_name)
    name = syntax.fresh_name(module, "train_step")
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
    outer_stmt, _ = syntax.statement_of(loops[-1], parents)
    new_outer = outer_stmt.deep_replace(block, new_block)
    definition = definition.with_changes(leading_lines=[*outer_stmt.leading_lines,
                                                        *comments])
    return module.deep_replace(outer_stmt, cst.FlattenSentinel([
        definition, new_outer.with_changes(leading_lines=[])]))


def _numpy_on_results(module, statements, written: set[str]) -> None:
    """Decline a step that hands what it computes to NumPy (`np.amax(q_next)`, `return
    np.array(loss)`): eagerly NumPy converts the tensor, traced it has no value yet."""
    numpy = syntax.module_alias(module, "numpy")
    if numpy is None:
        return
    for node in syntax.walk(cst.Module(body=list(statements))):
        if isinstance(node, cst.Call) and dotted_name(node.func).startswith(f"{numpy}.") and \
                any(syntax.names([a.value]).loaded & written for a in node.args):
            raise Decline(f"`{dotted_name(node.func)}(...)` takes a value the step computes: "
                          f"traced, it is a symbolic tensor NumPy cannot read; use the "
                          f"framework's op, or return it and convert after the call")


#: constructors that make variables: a `tf.function` may create them on its first call only
_MAKES_VARIABLES = ("Variable", "Sequential", "Model")


def _decorate_step_function(module, func, alias):
    """A tape block in a function a loop calls (`def train_step(x, y): with
    tf.GradientTape() as tape: ...`): decorate the function with `@tf.function`, when its
    whole body traces as it runs eagerly (the checks of a step moved out of a loop, over
    the body; `return` is allowed) and no call of it passes a Python number that changes
    (each new value would retrace). A function of the program the body calls is traced
    too, and is not checked here: the fix is then unsafe."""
    if func.decorators or func.asynchronous is not None:
        raise Decline(f"`{func.name.value}` already has a decorator, or is async")
    body = list(func.body.body)
    why = _eager_only(body, allow_return=True)
    if why:
        raise Decline(f"`{func.name.value}` uses {why}, which must run eagerly")
    numpy, random = syntax.module_alias(module, "numpy"), syntax.module_alias(module, "random")
    draws = tuple([f"{numpy}.random."] * bool(numpy) + [f"{random}."] * bool(random))
    for node in syntax.walk(cst.Module(body=body)):
        name = dotted_name(node.func) if isinstance(node, cst.Call) else ""
        if draws and name.startswith(draws):
            raise Decline(f"`{func.name.value}` draws with `{name}`: traced, it would draw "
                          f"once, at the first call, and every later step would reuse the "
                          f"numbers; move the tape block into a function of its own")
    for node in syntax.walk(cst.Module(body=body)):
        name = dotted_name(node.func) if isinstance(node, cst.Call) else ""
        if name.rsplit(".", 1)[-1] in _MAKES_VARIABLES or ".layers." in name:
            raise Decline(f"`{func.name.value}` creates variables "
                          f"(`{dotted_name(node.func)}`) on every call: a tf.function may "
                          f"create them only on its first")
    _static_shapes(body)
    params = {p.name.value for p in func.params.params}
    _, written = _reads_before_writes(body)
    _numpy_on_results(module, body, written)
    _traces_the_same(module, body, sorted(params), written | params)
    numbers = syntax.number_names(module)
    for node in syntax.walk(module):
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and \
                node.func.value == func.name.value:
            passed = {n for a in node.args for n in syntax.names([a.value]).loaded}
            if passed & numbers or any(isinstance(a.value, (cst.Integer, cst.Float))
                                       for a in node.args):
                raise Decline(f"a call of `{func.name.value}` passes a Python number: "
                              f"each new value would retrace the function")
    parents = syntax.parents(module)
    if isinstance(parents.get(parents.get(func)), cst.ClassDef):
        unproved(f"`{func.name.value}` reads no Python state of its object that changes "
                 f"between calls (a trace keeps what it read: a counter, a sampled batch)")
    tapes = {n for stmt in body if isinstance(stmt, cst.With) for item in stmt.items
             if item.asname is not None for n in syntax.names([item.asname.name]).loaded}
    keras = _keras_globals(module, alias)
    for node in syntax.walk(cst.Module(body=body)):
        if isinstance(node, cst.Call) and not _traced_as_is(node, alias, keras | tapes):
            unproved(f"`{dotted_name(node.func) or 'a call'}`, which `{func.name.value}` "
                     f"calls, traces as it runs eagerly (no Python state, random draws or "
                     f"host values)")
            break
    return module.deep_replace(func, func.with_changes(
        decorators=[cst.Decorator(cst.parse_expression(f"{alias}.function"))]))


#: builtins a traced step may call: they compute on their arguments only
_PURE_BUILTINS = frozenset({"zip", "range", "enumerate", "min", "max", "abs", "tuple",
                            "isinstance", "super"})


def _keras_globals(module, alias: str) -> set[str]:
    """Module-level names bound once to a Keras or TensorFlow construction (a model, a
    loss, an optimizer): calling them, or their methods, runs TensorFlow."""
    bound: dict[str, int] = {}
    made: set[str] = set()
    for stmt in module.body:
        for small in stmt.body if isinstance(stmt, cst.SimpleStatementLine) else ():
            if not isinstance(small, cst.Assign):
                continue
            for target in small.targets:
                if isinstance(target.target, cst.Name):
                    name = target.target.value
                    bound[name] = bound.get(name, 0) + 1
                    if isinstance(small.value, cst.Call) and \
                            dotted_name(small.value.func).startswith(f"{alias}."):
                        made.add(name)
    return {n for n in made if bound[n] == 1}


def _traced_as_is(call, alias: str, known: set[str]) -> bool:
    """Whether a call in a step runs the same traced as eagerly, as far as the code shows:
    a TensorFlow function, a pure builtin, or a model, loss, optimizer or tape of the
    module (called, or through its methods)."""
    name = dotted_name(call.func)
    if name.startswith(f"{alias}.") or name in _PURE_BUILTINS:
        return True
    return name.split(".", 1)[0] in known


def _static_shapes(statements) -> None:
    """A step that reads static shapes (`x.shape[0] - n`, `.shape.as_list()`) computes on
    values a trace may not know (a dimension is None until the call): unproved."""
    for node in syntax.walk(cst.Module(body=list(statements))):
        if isinstance(node, cst.Attribute) and node.attr.value in ("shape", "as_list"):
            unproved("the static shapes the step reads (`.shape`) are known when it is "
                     "traced, as they are when it runs eagerly")
            return


#: calls that change the container they are called on (`xs.append(v)`, `d.__setitem__(k, v)`)
_MUTATORS = catalogue.load().container_mutators | {"__setitem__"}


def _traces_the_same(module, step, params, written) -> None:
    """Declines when a `tf.function` of the step would not compute what the eager step
    does: it reads Python state that changes (an element of a container the program
    changes, a name a function rebinds: a trace bakes in what it read), draws Python or
    numpy random numbers (drawn once, when it traces), or takes a Python number that is
    new every step (a retrace on every call)."""
    numpy, mutated = syntax.module_alias(module, "numpy"), _mutated_containers(module)
    for node in syntax.walk(cst.Module(body=list(step))):
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
    numbers = sorted(set(params) & syntax.number_names(module))
    if numbers:
        raise Decline(f"the step reads `{numbers[0]}`, a Python number that changes every "
                      f"step: each new value would retrace the function")
    read, _ = _reads_before_writes(step)
    for name in sorted(read - set(params)):
        assigned = syntax.assigned_elsewhere(module, step[0], name)
        if assigned:
            raise Decline(f"{assigned}: a tf.function would keep the value it traced")


def _mutated_containers(module) -> set[str]:
    """Names the program changes through an item or a mutating method (`d[k] = v`,
    `xs.append(v)`, `xs[0] += 1`)."""
    found = set()
    for node in syntax.walk(module):
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


RULE = Rule(
    flag="harp-eager-step",
    summary="Find TF2 training steps run eagerly in loops (HARP103)",
    run=run,
    hint=HintSpec(
        id="HARP103",
        name="eager-step",
        finds="a TF2 training step (`tf.GradientTape`) run eagerly in a loop whose body is "
              "graph-compatible, or becomes so once its host reads that only feed output, an "
              "accumulator or its results (`loss.numpy()` logged, `np.amax` of a tensor) "
              "move out of it (the message names them; none may decide the step's path)",
        why="eager execution dispatches every op from Python one at a time; a `tf.function` runs"
            " the whole step as one optimised graph",
        refactoring="wrap the step in `tf.function`",
        before="for x, y in data:\n"
               "    with tf.GradientTape() as tape:\n"
               "        loss = loss_fn(model(x), y)\n"
               "    ...\n",
        after="@tf.function\n"
              "def step(x, y):\n"
              "    with tf.GradientTape() as tape:\n"
              "        loss = loss_fn(model(x), y)\n"
              "    ...\n"
              "for x, y in data:\n"
              "    step(x, y)\n",
        assumptions=("loop-runs", "traceable", "random-stream", "hot-loop", "every-iteration"),
    ),
    fix=Fix(
        apply=fix_eager_step,
        summary="safe; unsafe when the step reads static shapes, calls a function of the "
                "file (not checked for tracing) or draws TensorFlow random numbers (a seeded "
                "program's numbers change)",
        rewrite="the tape block and the statements after it that use its results become a "
                "`@tf.function` step defined before the outermost loop; the loop calls it with "
                "the names the loop binds and takes back the names used later; a tape in the "
                "function a loop calls: that function is decorated with `@tf.function`",
        declines="the step prints, syncs, appends, assigns augmentedly, breaks or returns, reads"
                 " a `range` counter or a Python number the loop rebinds (it would retrace every"
                 " step), reads an element of a list or dict the program changes or a name a "
                 "function rebinds (a trace reads them once), draws Python/numpy random "
                 "numbers (drawn once, at trace time), or creates variables (`tf.Variable`, "
                 "layers, models) on every call; a call of the step function passes a Python "
                 "number",
    ),
)
