"""--harp-sample-permutes-population (HARP505): a batch drawn by shuffling everything.

Finds, on every step of a training loop (through the calls that lead to it, guards
counted):
- `np.random.choice(n, k, replace=False)`: legacy numpy draws without replacement by
  shuffling a permutation of all n items and keeping k;
- `np.random.permutation(n)[:k]`, the same in two steps;
- `np.random.choice(range(n), ...)` (or of `list(range(n))`): numpy first converts the
  range into an array, one Python int at a time.
Each step then pays O(n) host work to draw a batch of k: a replay memory or a data set of
10^5 items costs about a millisecond per step, next to a step of a few.

Assumes: the population is large enough for the draw to cost a millisecond per step (a
stated size proves it: 30,000 items for a range, 100,000 for a permutation; a smaller or
an unstated size is a high-risk speculation, the aggressive level's), and the step runs
on most iterations of a loop that trains.
"""

from __future__ import annotations

import libcst as cst
from torch_mlir import ir

from harp_ir import callgraph
from harp_ir.analysis import (
    Assumption,
    call_arguments,
    capacity,
    constant_value,
    holds,
    producer,
    record_hint,
    same_op,
    setting_int,
    string_attr,
    walk,
)
from harp_ir.codemods import Decline, node_at
from harp_ir.frontend.names import dotted_name
from harp_ir.rules import Fix, HintSpec, Rule

HINT = "HARP505"
CHOICE, PERMUTATION = "numpy.random.choice", "numpy.random.permutation"
#: host time per item of the population, measured with numpy 2 on one core: converting a
#: range to an array, and the legacy permutation behind a choice without replacement
NS_PER_ITEM = {"range": 35, "choice": 12, "permutation": 12}
#: a draw costing this much per step is worth a change whatever the step (1 ms)
WORTH_NS = 1_000_000
#: populations below this are not worth a hint at any level
SMALL = 1_000


def _range_of(value) -> ir.Operation | None:
    """The `range(...)` call a population is written as (`range(n)`, `list(range(n))`),
    else None."""
    made = producer(value)
    if made is not None and string_attr(made, "qualname") == "builtins.list" and \
            len(made.operands) == 2:
        made = producer(made.operands[1])
    return made if made is not None and \
        string_attr(made, "qualname") == "builtins.range" else None


def _range_length(call: ir.Operation) -> int | None:
    """How many items `range(n)` or `range(a, b)` holds when the program states it."""
    bounds = [setting_int(v) for _, v in call_arguments(call)]
    if len(bounds) == 1 and bounds[0] is not None:
        return bounds[0]
    if len(bounds) == 2 and None not in bounds:
        return bounds[1] - bounds[0]
    return None


def _draw(op):
    """(form, population value) for a batch drawn in a way this rule reports, else None:
    "range" for a choice over a range (any `replace`), "choice" for a choice without
    replacement, and "permutation" for `np.random.permutation(n)[:k]`. A choice without
    a size draws one item (an action by its probabilities): not a batch."""
    if op.name == "host.getitem":
        made = producer(op.operands[0])
        index = producer(op.operands[1])
        if made is not None and string_attr(made, "qualname") == PERMUTATION and \
                index is not None and index.name == "host.slice" and len(made.operands) == 2:
            return "permutation", made.operands[1]
        return None
    if op.name != "host.call" or string_attr(op, "qualname") != CHOICE:
        return None
    arguments = call_arguments(op)
    positional = [v for k, v in arguments if k == ""]
    population = positional[0] if positional else dict(arguments).get("a")
    size = positional[1] if len(positional) > 1 else dict(arguments).get("size")
    drawn = constant_value(size) if size is not None else None
    if population is None or drawn is None or isinstance(drawn, int) and drawn < 2:
        return None  # one draw (an action), not a batch
    if _range_of(population) is not None:
        return "range", population
    replace = positional[2] if len(positional) > 2 else dict(arguments).get("replace")
    if replace is not None and constant_value(replace) is False:
        return "choice", population
    return None


def _size(form: str, population, loop) -> tuple[int | None, str]:
    """(how many items the population holds, "all" or "up to"), when the program states
    it: a number, or the capacity of the memory whose length it is when `loop` fills it
    (a replay memory the loop adds to on each step, or extends by lists, holds that many
    for most of the run; one that gains an item per episode stays small)."""
    count = _range_of(population) if form == "range" else None
    size = _range_length(count) if form == "range" else setting_int(population)
    if size is not None:
        return size, "all"
    counted = population if form != "range" else \
        count.operands[1] if len(count.operands) == 2 else None
    bound = capacity(counted) if counted is not None else None
    if bound is None or not any(_fills(grow, loop) for grow in bound[1]):
        return None, ""
    return bound[0], "up to"


def _fills(grow, loop) -> bool:
    """Whether `grow` adds several items per call (`extend`, `+=`), or runs on every
    iteration of `loop` or of a loop inside it."""
    if string_attr(grow, "method") == "extend" or grow.name == "host.setattr" and \
            producer(grow.operands[1]).name == "host.binop":
        return True
    return any(c.how_often.kind == "always" and (same_op(c.loop, loop) or holds(loop, c.loop))
               for c in callgraph.contexts(grow))


def _size_assumption(form: str, size: int | None) -> Assumption | None:
    """None when the stated population makes the draw cost a millisecond or more per
    step; else the high-risk speculation the hint then rests on. Blind readers judged
    draws from a data set or replay memory of unstated size TRUE where it held 55,000
    images or a million transitions, and FALSE where it held 140 word pairs: a size the
    code does not state is a guess."""
    if size is not None and size * NS_PER_ITEM[form] >= WORTH_NS:
        return None
    if size is not None:
        cost = size * NS_PER_ITEM[form] / 1e6
        return Assumption("step-share", f"{size:,} items", "high", "speculated",
                          f"drawing from {size:,} items costs about {cost:.2f} ms per step: "
                          f"worth it only when the step is short")
    return Assumption("step-share", "the population", "high", "speculated",
                      "the code does not state the population's size: the O(n) draw is "
                      "worth a change for a data set or replay memory of 10^5 items or "
                      "more (about a millisecond per step), not for a few thousand")


def run(module, pass_=None) -> None:
    for op in walk(module):
        found = _draw(op)
        if found is None:
            continue
        form, population = found
        ctx = callgraph.per_step(op, callgraph.training_work)
        if ctx is None:
            continue
        size, how = _size(form, population, ctx.loop)
        if size is not None and size < SMALL:
            continue
        items = f"{how} {size:,} items" if size is not None else "the whole population"
        if form == "range":
            message = (f"`np.random.choice(range(...))` converts the range into an array, "
                       f"one Python int at a time ({items}), {ctx.phrase(op)}; pass the "
                       f"number itself (`np.random.choice(n, ...)`): numpy then draws the "
                       f"same indices without building the array")
        else:
            what = "`np.random.choice(..., replace=False)`" if form == "choice" else \
                "`np.random.permutation(n)[:k]`"
            message = (f"{what} shuffles a permutation of {items} to keep a few "
                       f"{ctx.phrase(op)}: O(population) host work per step; draw with a "
                       f"Generator made once (`rng = np.random.default_rng(seed)`, then "
                       f"`rng.choice(n, k, replace=False)`, which picks k without shuffling "
                       f"the rest), or with `random.sample(range(n), k)`; either draws "
                       f"other numbers than `np.random`'s global state")
        assumptions = ctx.frequency_assumptions()
        share = _size_assumption(form, size)
        if share is not None:
            assumptions.append(share)
        record_hint(op, HINT, message, assumptions, related=[ctx.site])


# --- the fix ------------------------------------------------------------------------------

def fix_sample_permutes_population(module, positions, hint):
    """`np.random.choice(range(n), ...)` -> `np.random.choice(n, ...)`: numpy takes an int
    population as `arange(n)` and draws the same indices from the same random state; only
    the conversion goes."""
    call = node_at(positions, hint.span, cst.Call)
    if not call.args or call.args[0].keyword is not None or call.args[0].star:
        raise Decline("the population is not the first positional argument")
    population = call.args[0].value
    if isinstance(population, cst.Call) and dotted_name(population.func) == "list" and \
            len(population.args) == 1:
        population = population.args[0].value
    if not (isinstance(population, cst.Call) and dotted_name(population.func) == "range"
            and len(population.args) == 1 and population.args[0].keyword is None
            and not population.args[0].star):
        raise Decline("a choice without replacement over n items has no drop-in rewrite: "
                      "a Generator or `random.sample` draws other numbers (change it by "
                      "hand where the program's exact draws do not matter)")
    first = call.args[0].with_changes(value=population.args[0].value)
    return module.deep_replace(call, call.with_changes(args=[first, *call.args[1:]]))


RULE = Rule(
    flag="harp-sample-permutes-population",
    summary="Find batches drawn by shuffling or converting the whole population per step "
            "(HARP505)",
    run=run,
    hint=HintSpec(
        id="HARP505",
        name="sample-permutes-population",
        finds="`np.random.choice(n, k, replace=False)`, `np.random.permutation(n)[:k]` or "
              "`np.random.choice(range(n), ...)` on every step of a training loop (a replay "
              "memory's or a data set's batch indices)",
        why="legacy numpy draws without replacement by shuffling all n items, and converts "
            "a range element by element: O(n) host work per step to keep a batch of k, "
            "about a millisecond for 10^5 items",
        refactoring="`np.random.choice(n, ...)` for a range; a Generator's `choice` or "
                    "`random.sample(range(n), k)` without replacement",
        before="idx = np.random.choice(range(self.size), 32, replace=False)\n",
        after="idx = np.random.choice(self.size, 32, replace=False)\n"
              "# or, O(k): rng.choice(self.size, 32, replace=False)\n",
        assumptions=("every-iteration", "hot-loop", "step-share"),
    ),
    fix=Fix(
        apply=fix_sample_permutes_population,
        summary="safe for a choice over `range(n)`; none without replacement over n",
        rewrite="`np.random.choice(range(n), ...)` and `np.random.choice(list(range(n)), "
                "...)` become `np.random.choice(n, ...)`: the same draws, without the "
                "conversion",
        declines="a draw without replacement over a number (any rewrite draws other "
                 "numbers), or a range with a start or a step",
    ),
)
