"""--harp-graph-built-in-loop (HARP101): TF1 graph construction inside a loop that also
runs the graph.

Finds: calls whose effect is `graph_build` (`tensorflow.compat.v1` op constructors,
`tf.Variable`, optimizers and `minimize`, savers, initializers, `tf.gradients`) inside a
loop whose body also calls `Session.run`. Each iteration adds new nodes to the default
graph: the graph, the memory it holds and the time of every `run` grow with the loop.

Not reported when each iteration builds into a new graph: it calls
`tf.reset_default_graph()` (in the loop or a function it calls), or builds under `with
tf.Graph().as_default():` for a graph made on that iteration.

Assumes: the names resolve to TensorFlow (not monkey-patched) and the ops are not built
under a fresh graph per iteration in a way the program does not show.
"""

from __future__ import annotations

import libcst as cst

from harp_ir.analysis import (
    SESSION_RUN,
    Assumption,
    call_arguments,
    call_in_loop,
    called_function,
    calls_of,
    definition,
    describe_loop,
    enclosing_scope,
    few_iterations,
    frequency,
    holds,
    loop_runs,
    loops_around,
    producer,
    receiver,
    record_hint,
    runs_inner_loop,
    same_op,
    span,
    string_attr,
    strings_attr,
    walk,
)
from harp_ir.codemods import Decline, hoist, node_at, syntax
from harp_ir.frontend.names import dotted_name
from harp_ir.rules import Fix, HintSpec, Rule, established

HINT = "HARP101"


def _session_parameter_run(call, func) -> bool:
    """`session.run(...)` in `func` on its parameter `session`, which every call of `func`
    in the file passes a `tf.Session` (the session's kind flows into the callee)."""
    if func.name != "host.func" or string_attr(call, "method") != "run":
        return False
    receiver = string_attr(call, "harp.receiver")
    params = strings_attr(func, "arg_names")
    if receiver not in params:
        return False
    index = params.index(receiver)
    calls = calls_of(func)
    return bool(calls) and all(
        len(arguments := call_arguments(c)) > index and arguments[index][0] == "" and
        producer(arguments[index][1]) is not None and
        string_attr(producer(arguments[index][1]), "harp.kind") == "session"
        for c in calls)


#: per run of the pass: what a loop or function was found to do (a call site asks again)
_MEMO: dict = {}


def _memo(compute, op):
    key = (compute.__name__, op)
    if key not in _MEMO:
        _MEMO[key] = compute(op)
    return _MEMO[key]


def _first_call(region, hit, depth: int = 0):
    """The first call that running `region` makes, in it or in a function of the file it
    calls (three deep), for which `hit(call, function holding it)` holds, or None."""
    for op in walk(region):
        if op.name != "host.call":
            continue
        if hit(op, region):
            return op
        callee = called_function(op) if depth < 3 else None
        found = _first_call(callee, hit, depth + 1) if callee is not None and \
            not same_op(callee, region) else None
        if found is not None:
            return found
    return None


def _runs_graph(region) -> bool:
    """Whether running `region` runs the graph: a `Session.run` in it or in a function of
    the file it calls."""
    return _first_call(region, lambda op, holder: string_attr(op, "qualname") == SESSION_RUN
                       or _session_parameter_run(op, holder)) is not None


def _resets_graph(loop) -> bool:
    """Whether an iteration of `loop` calls `tf.reset_default_graph()`, in the loop or in a
    function of the file it calls (a converter's `load()` per resolution): the nodes an
    iteration adds are dropped with the graph, so the graph does not grow."""
    return _first_call(loop, lambda op, holder: string_attr(op, "qualname") ==
                       "tensorflow.compat.v1.reset_default_graph") is not None


def _fresh_graph(op, loop) -> bool:
    """Whether `op` builds into a graph made on each iteration of `loop`: under `with
    g.as_default():` for a graph made there (`with tf.Graph().as_default():`, or a `g =
    tf.Graph()` in the loop), or, outside any such block, into a default graph the
    iteration resets (`_resets_graph`)."""
    parent = op.parent
    while parent is not None and not same_op(parent, loop):
        if parent.name == "host.with" and parent.operands:
            entered = producer(parent.operands[0])
            if entered is not None and entered.name == "host.call" and \
                    string_attr(entered, "method") == "as_default":
                graph = receiver(entered)
                made = producer(graph) if graph is not None else None
                if made is not None and made.name == "host.load":
                    made = definition(graph, enclosing_scope(made))
                return made is not None and made.name == "host.call" and holds(loop, made)
        parent = parent.parent
    return _memo(_resets_graph, loop)


def _builds_in(func):
    """The first graph construction that calling `func` (a function of this file) runs,
    through the functions it calls, or None."""
    return _first_call(func, lambda op, holder: string_attr(op, "effect") == "graph_build")


def _side_effect(func, depth: int = 0) -> str:
    """What calling `func` does besides building graph ops and pure computation (a call
    with another effect, a global store, a write to an object it did not create), as
    "line N", or "" when nothing: then building once before the loop is the same."""
    for op in walk(func):
        other = op.name == "host.call" and string_attr(op, "effect") not in (
            "graph_build", "pure") or op.name == "host.store" and string_attr(
            op, "scope") in ("global", "nonlocal") or op.name in (
            "host.setattr", "host.setitem", "host.delitem", "host.yield_value", "host.await")
        callee = called_function(op) if op.name == "host.call" else None
        if callee is not None and depth < 3 and not same_op(callee, func):
            other = bool(_side_effect(callee, depth + 1))
        if other:
            where = span(op.location)
            return f"line {where.line}" if where else "its body"
    return ""


def _builds_only(func) -> Assumption:
    name = f"{string_attr(func, 'sym_name')}()"
    other = _side_effect(func)
    if not other:
        return Assumption("pure", name, "low", "proved",
                          "it only builds graph ops and computes on values")
    return Assumption("pure", name, "medium", "speculated",
                      f"it does more than build graph ops ({other}): moved before the "
                      f"loop, that runs once")


def _hoist_safety(hint) -> str:
    """A function of the file moved with the construction must only build graph ops (the
    move's need for the loop to run is the codemod's: it guards the move, or says)."""
    return "safe" if all(established(a) for a in hint.assumptions if a.kind == "pure") \
        else "unsafe"


def _graph_loop(call):
    """The loop around `call` (in its scope) that also runs the graph, or None."""
    return next((lp for lp in loops_around(call)
                 if _memo(_runs_graph, lp)), None)


def _per_outer_iteration(loop, site) -> list[Assumption]:
    """A high-risk `hot-loop` speculation when an iteration of `loop` also runs an inner
    loop of model work (`for cls in classes: init_noise(); optimize(300)`): the op is built
    once per outer iteration, beside the steps that run the graph, so the graph grows by
    a few ops per epoch or episode, not per step."""
    if not runs_inner_loop(loop, site):
        return []
    return [Assumption("hot-loop", describe_loop(loop), "high", "speculated",
                       f"an iteration of {describe_loop(loop)} also runs an inner loop of "
                       f"model work: the op is built once per such iteration, not on every "
                       f"step that runs the graph")]


def _guarded(site, loop) -> list[Assumption]:
    """The guard `site` runs under in `loop`: a periodic evaluation (`if step - last_eval
    >= every:`), an epoch's end (`except OutOfRangeError:`) adds a node every so many
    steps, not on every one: a high-risk speculation that it matters."""
    found = frequency(site, loop).assumption(loop)
    return [found] if found is not None else []


def _handful(site) -> list[Assumption]:
    """A high-risk `hot-loop` speculation when every loop around `site` is a constant
    `range` of at most 16 iterations and nothing repeats them (module-level code, or a
    function no loop calls): the op is built a handful of times in the whole run, so the
    graph gains a handful of nodes, not one per step (a demo's `for _ in range(10)`)."""
    loops = loops_around(site)
    scope = enclosing_scope(site)
    if not loops or not all(few_iterations(lp) for lp in loops) or (
            scope.name == "host.func" and call_in_loop(scope) is not None):
        return []
    return [Assumption("hot-loop", describe_loop(loops[0]), "high", "speculated",
                       f"{describe_loop(loops[0])} runs at most 16 times and nothing "
                       f"repeats it: the op is built a handful of times, not on every step")]


def _report_in_callee(func, built, loop, reported: set, site) -> None:
    """A function that builds `built` and runs the graph itself, called only in loops:
    the op must move out of the function, so the hint goes on the construction, naming
    the function and the loop. (A function that returns what it builds is reported at
    the call, which moves before the loop.)"""
    if any(same_op(built, r) for r in reported):
        return
    reported.add(built)
    qualname = string_attr(built, "qualname")
    name = string_attr(func, "sym_name")
    message = (f"`{qualname.replace('tensorflow.compat.v1', 'tf')}` adds nodes to the graph "
               f"every time `{name}()` runs, and `{name}()` is called in "
               f"{describe_loop(loop)}, which also runs the graph: the graph and every `run` "
               f"grow with the loop; build the op once, outside `{name}`, and run it there")
    record_hint(built, HINT, message, [
        Assumption("library", qualname, "low", "proved",
                   "the name resolves to tensorflow.compat.v1"),
        Assumption("same-graph", describe_loop(loop), "medium", "speculated",
                   "the loop does not build into a fresh tf.Graph each iteration"),
        loop_runs(loop),
        *_per_outer_iteration(loop, built),
        *_guarded(site, loop),
        *(_handful(sites[0]) if len(sites := calls_of(func)) == 1 else []),
    ])


def run(module, pass_=None) -> None:
    _MEMO.clear()
    reported: set = set()
    for op in walk(module):
        if op.name != "host.call":
            continue
        built = op if string_attr(op, "effect") == "graph_build" else None
        func = called_function(op) if built is None else None
        built = _memo(_builds_in, func) if func is not None else built
        if built is None:
            continue
        loop = _graph_loop(op)
        if loop is None or _fresh_graph(op, loop):
            continue  # each iteration builds into a new graph: nothing grows
        if func is not None and _memo(_runs_graph, func) and \
                all(_graph_loop(c) is not None for c in calls_of(func)):
            _report_in_callee(func, built, loop, reported, op)
            continue
        what = "`" + string_attr(built, "qualname").replace("tensorflow.compat.v1", "tf") + "`"
        if func is not None:  # a function of the file that builds ops, called in the loop
            where = span(built.location)
            line = f" at line {where.line}" if where else ""
            what = f"`{string_attr(func, 'sym_name')}()` (it calls {what}{line})"
        message = (f"{what} adds nodes to the graph on every iteration of "
                   f"{describe_loop(loop)}, which also runs the graph: the graph and every "
                   f"`run` grow with the loop; build it once before the loop and feed the "
                   f"changing values through placeholders")
        record_hint(op, HINT, message, [
            Assumption("library", string_attr(built, "qualname"), "low", "proved",
                       "the name resolves to tensorflow.compat.v1"),
            Assumption("same-graph", describe_loop(loop), "medium", "speculated",
                       "the loop does not build into a fresh tf.Graph each iteration"),
            loop_runs(loops_around(op)[0]),  # the loop a fix moves it out of
            *_per_outer_iteration(loop, op),
            *_guarded(op, loop),
            *_handful(op),
        ] + ([_builds_only(func)] if func is not None else []))


# --- the fix ------------------------------------------------------------------------------

def fix_graph_built_in_loop(module, positions, hint):
    """Build the op once before the loop. A changing value it was built from (the new
    value of `tf.assign`) becomes a placeholder fed on each `run`."""
    call = node_at(positions, hint.span, cst.Call)
    parents = syntax.parents(module)
    loop = syntax.enclosing_loop(call, parents)
    if loop is None:
        raise Decline("the op is built in a function the loop calls: building it once "
                      "outside the function changes what the function's callers pass")
    changing = syntax.names([call]).loaded & syntax.loop_writes(loop)
    if not changing:
        try:
            return hoist.hoist(module, positions, hint, "graph construction")
        except hoist.NotWholeStatement:
            return hoist.hoist_expression(module, call, parents, hint)
    return _feed_changing_value(module, call, parents, loop, changing, hint)


def _feed_changing_value(module, call, parents, loop, changing, hint):
    """`sess.run(tf.assign(w, v))` with `v` new each iteration becomes
    `v_ph = tf.placeholder(w.dtype.base_dtype, w.shape)` and `assign = tf.assign(w, v_ph)`
    before the loop, and `sess.run(assign, feed_dict={v_ph: v})` in it."""
    what = sorted(changing)[0]
    alias = syntax.module_alias(module, "tensorflow.compat.v1")
    if alias is None and any(a.kind == "tf1-api" for a in hint.assumptions):
        alias = syntax.module_alias(module, "tensorflow")  # TF1 code: `import tensorflow as tf`
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
    if not (isinstance(value, cst.Name) and not (syntax.names([ref]).loaded & changing)):
        raise Decline(f"the construction reads `{what}`, which changes every iteration; only "
                      f"the new value of an assign is fed through a placeholder")
    if not (isinstance(run, cst.Call) and isinstance(run.func, cst.Attribute)
            and run.func.attr.value == "run" and run.args[0].value is call):
        raise Decline(f"the assign of `{what}` is not run directly by `Session.run`")
    feed = next((a for a in run.args[1:] if a.keyword is None or
                 a.keyword.value == "feed_dict"), None)
    if feed is not None and not isinstance(feed.value, cst.Dict):
        raise Decline("the run already has a feed that is not a dict display")
    placeholder = syntax.fresh_name(module, f"{value.value}_ph")
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
    new_call = next(n for n in syntax.parents(module) if isinstance(n, cst.Call)
                    and n.deep_equals(new_call))
    return hoist.hoist_expression(module, new_call, syntax.parents(module), hint,
                                  before=[declare])


RULE = Rule(
    flag="harp-graph-built-in-loop",
    summary="Find TF1 graph construction in loops that run it (HARP101)",
    run=run,
    hint=HintSpec(
        id="HARP101",
        name="graph-built-in-loop",
        finds="TF graph construction (op constructors, `tf.Variable` and its `assign`, "
              "optimizers, savers, initializers, `tf.gradients`, or a function of the file that "
              "builds ops) inside a Python loop that also runs the graph",
        why="every iteration adds ops to the graph, so the graph (and the session's memory) "
            "grows without bound and each `run` gets slower",
        refactoring="build the graph once before the loop; feed the changing values",
        before="for x in batches:\n"
               "    y = tf.matmul(x_ph, w)\n"
               "    sess.run(y, {x_ph: x})\n",
        after="y = tf.matmul(x_ph, w)\n"
              "for x in batches:\n"
              "    sess.run(y, {x_ph: x})\n",
        assumptions=("library", "same-graph", "loop-runs", "hot-loop", "every-iteration",
                     "pure"),
    ),
    fix=Fix(
        apply=fix_graph_built_in_loop,
        summary="safe (guarded by the loop's `range` or list when the loop may run zero "
                "times); unsafe for a loop of unknown length or a function that does more "
                "than build ops",
        rewrite="TF1 ops built in the loop are built once before it (the `name = ...` statement,"
                " or the sub-expression into a new variable); `sess.run(tf.assign(w, v))` with "
                "`v` new each iteration gets a placeholder fed with `v`; a call of a function "
                "of the file moves only when the function does nothing but build ops (else "
                "`--unsafe-fixes`)",
        declines="the construction reads another value the loop changes",
        safety=_hoist_safety,
        unsafe_because="a function it calls does more than build graph ops: moved before the "
                       "loop, the rest runs once",
    ),
)
