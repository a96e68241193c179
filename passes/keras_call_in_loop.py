"""--harp-keras-call-in-loop (HARP404): Keras `predict` or `fit` called per step in a loop.

Finds: `model.predict(x)` or `model.fit(x, y)` (one epoch) on a Keras model on every
iteration of a Python loop, directly or in a function or method of the file the loop
calls (an agent's `act(state)` per environment step, a replay minibatch loop). Both are
built for a dataset: each call wraps its input in a data adapter, sets up callbacks, a
progress bar and (for `fit`) a History, and runs a loop over batches, about a hundred
times the cost of a small model on one small batch. `predict_on_batch(x)` (or
`model(x, training=False)`) and `train_on_batch(x, y)` run the model directly.

Keras model: a value built by a Keras model constructor of the catalogue (`Sequential`,
`Model`, `load_model`, a `keras.Model` subclass), through locals, parameters, `self.model
= ...` attributes and the builder methods of the file that return one; speculated when
the same receiver is `compile`d or `fit` with Keras-only keywords.

Assumes: the input is one batch (a few examples): the `*_on_batch` methods run their whole
input at once. Proved when the input is shaped as one example on the way (`np.reshape(s,
[1, n])`, `s.reshape(1, -1)`, `np.expand_dims(s, 0)`, `s[None]`, `np.array([s])`,
`x[i:i + 1]`), also through the parameter of a function whose every call passes one.
Not reported at the default level: a loop of a handful of iterations, a call under a
periodic guard, an input that does not change in the loop (one prediction of a fixed
set per epoch or per model; `fit(X, y, epochs=1)` in an epoch loop), a dataset or
generator input, a loop that builds the model it uses (a sweep), `fit` for several epochs.
"""

from __future__ import annotations

import libcst as cst

from harp_ir import catalogue
from harp_ir.analysis import (
    Assumption,
    binding_scopes,
    call_arguments,
    called_function,
    calls_of,
    constant_value,
    definition,
    definitions,
    describe_loop,
    enclosing_loop,
    enclosing_scope,
    few_iterations,
    from_loop_element,
    host_module,
    instance_class,
    invariant_in,
    loop_mutates,
    loop_of,
    loop_runs,
    paced,
    passed_arguments,
    producer,
    reaching_store,
    record_hint,
    same_op,
    self_class,
    stated_int,
    string_attr,
    unit_slice,
    walk,
)
from harp_ir.callgraph import run_rate
from harp_ir.codemods import Decline, node_at, syntax, unproved
from harp_ir.rules import Fix, HintSpec, Rule, established

HINT = "HARP404"
#: keywords of `compile` and `fit` that only a Keras model takes
_KERAS_KEYWORDS = {"compile": ("loss", "optimizer", "metrics"),
                   "fit": ("epochs", "batch_size", "verbose", "callbacks",
                           "validation_data", "validation_split")}
#: methods only a Keras model has (a PyTorch module or a scikit-learn estimator has none)
_KERAS_ONLY_METHODS = ("train_on_batch", "predict_on_batch", "test_on_batch",
                       "fit_generator", "predict_generator", "evaluate_generator")


# --- is the receiver a Keras model? -------------------------------------------------------

def _keras_value(value, scope, depth: int = 0) -> str:
    """How the program shows `value` is a Keras model ("" when it does not): a construction
    of the catalogue's kind `module` in framework tf, seen through a local stored once, an
    attribute `self.x` every store of which makes one, and a function of the file whose
    every return makes one."""
    if depth > 3 or scope is None:
        return ""
    unpack = producer(value)
    if unpack is not None and unpack.name == "host.unpack":  # `self.model, w, s = build()`
        return _keras_unpacked(unpack, value.result_number, depth)
    if unpack is not None and unpack.name == "host.load":  # a global a function reads
        scope = next(iter(binding_scopes(unpack)), scope)
    made = definition(value, scope)
    if made is None:
        several = definitions(value, scope)  # bound in branches: each binding makes one
        found = [_keras_made(m, depth) for m in several] if len(several) > 1 else []
        if found and all(found):
            return found[0]
        attribute = producer(value)
        return _keras_attribute(attribute, depth) or \
            _through_parameter(value, scope, _keras_value, depth)
    return _keras_made(made, depth)


def _keras_made(made, depth: int) -> str:
    """How the op `made` is shown to make a Keras model ("" when it is not)."""
    if made.name == "host.getattr":
        return _keras_attribute(made, depth)
    if made.name != "host.call":
        return ""
    if string_attr(made, "harp.kind") == "module" and \
            string_attr(made, "harp.framework") == "tf" and \
            string_attr(made, "qualname").rsplit(".", 1)[-1] not in ("Dense", "Layer"):
        name = string_attr(made, "qualname") or "a Keras model class of the file"
        return f"built by `{name}`"
    func = called_function(made)
    if func is None:
        return ""
    returns = [op for op in walk(func) if op.name == "hostcf.return" and op.operands and
               enclosing_scope(op) == func]
    found = [_keras_value(r.operands[0], func, depth + 1) for r in returns]
    if found and all(found):
        return f"returned by `{string_attr(func, 'sym_name')}()`, {found[0]}"
    return ""


def _keras_unpacked(unpack, index: int, depth: int) -> str:
    """How element `index` of a tuple a function of the program returns is shown to be a
    Keras model (`return model, model.trainable_weights, S`), on every return."""
    source = producer(unpack.operands[0])
    func = called_function(source) if source is not None and source.name == "host.call" \
        else None
    if func is None:
        return ""
    found = []
    for ret in walk(func):
        if ret.name != "hostcf.return" or not ret.operands or \
                not same_op(enclosing_scope(ret), func):
            continue
        made = producer(ret.operands[0])
        if made is None or made.name != "host.tuple" or index >= len(made.operands):
            return ""
        found.append(_keras_value(made.operands[index], func, depth + 1))
    return f"returned by `{string_attr(func, 'sym_name')}()`, {found[0]}" \
        if found and all(found) else ""


def _keras_attribute(attribute, depth: int) -> str:
    """`self.model` in a method, or `agent.model` of an instance of a class of the file:
    every `self.model = ...` in the class makes a Keras model."""
    if attribute.name != "host.getattr":
        return ""
    found = [_keras_value(v, scope, depth + 1) for v, scope in _attribute_values(attribute)]
    return found[0] if found and all(found) else ""


def _attribute_values(attribute) -> list[tuple]:
    """What the stores of `self.model = ...` in the class of `attribute`'s object bind,
    each with the method it is in ([] when the class is not the program's)."""
    cls = instance_class(attribute.operands[0], attribute)
    if cls is None:
        return []
    name = string_attr(attribute, "attr")
    return [(op.operands[1], enclosing_scope(op)) for op in walk(cls)
            if op.name == "host.setattr" and string_attr(op, "attr") == name and
            self_class(op.operands[0]) is not None]


def _image_network(value, scope, depth: int = 0) -> str:
    """The catalogue's deep image network (`keras.applications.MobileNet`) the Keras model
    `value` is, or is built on (`Model(base.input, Dense(10)(base.output))`), seen through
    locals and `self.x` attributes; "" when none is."""
    if depth > 12 or scope is None:
        return ""
    attribute = producer(value)
    if attribute is not None and attribute.name == "host.getattr":
        if string_attr(attribute, "attr") in ("input", "output", "inputs", "outputs"):
            return _image_network(attribute.operands[0], scope, depth + 1)
        found = [_image_network(v, where, depth + 1)
                 for v, where in _attribute_values(attribute)]
        return found[0] if found and all(found) else ""
    if attribute is not None and attribute.name == "host.load":  # a global a function reads
        scope = next(iter(binding_scopes(attribute)), scope)
    made = definition(value, scope)
    if made is None or made.name != "host.call":
        return ""
    qualname = string_attr(made, "qualname")
    if catalogue.load().image_network(qualname):
        return qualname.rsplit(".", 1)[-1]
    # a model wrapping one: its inputs or outputs come from the network (`base.output`,
    # through the layers applied to it)
    for argument in list(made.operands)[1:]:
        found = _image_network(argument, scope, depth + 1)
        if found:
            return found
    return ""


def _keras_by_use(call) -> str:
    """The same receiver `compile`d or `fit` with Keras-only keywords, or given a method
    only Keras models have (`self.model.train_on_batch(x, y)`), in a file that imports
    Keras: a speculation, the reason as a phrase ("" when there is none)."""
    path = string_attr(call, "harp.receiver")
    module = host_module(call)
    if not path or module is None:
        return ""
    keras = any(string_attr(op, "qualname").startswith(("keras", "tensorflow"))
                for op in walk(module) if op.name == "host.import")
    if called_function(call) is not None:
        return ""  # the program's own method (a wrapper class's `predict`) runs
    owner = _class_around(call) if path.startswith("self.") else None
    for op in walk(module) if keras else ():
        if owner is not None and not same_op(_class_around(op) or op, owner):
            continue  # `self.actor` of another class is another attribute
        method = string_attr(op, "method")
        if op.name == "host.call" and method in _KERAS_KEYWORDS and \
                string_attr(op, "harp.receiver") == path and \
                any(k in _KERAS_KEYWORDS[method] for k, _ in call_arguments(op)):
            return f"`{path}.{method}(...)` takes Keras keywords"
        if op.name == "host.call" and method in _KERAS_ONLY_METHODS and \
                string_attr(op, "harp.receiver") == path:
            return f"`{path}.{method}(...)` is a Keras model's method"
    return ""


def _class_around(op):
    """The class whose method holds `op`, or None."""
    parent = op.parent
    while parent is not None and parent.name != "host.class":
        parent = parent.parent
    return parent


# --- is the input one example? ------------------------------------------------------------

def _whole_set_batch(args) -> str:
    """How `batch_size=` makes the call's whole input one batch ("" when it does not): the
    size of a data array, `batch_size=A.shape[0]` or `len(x)` (full-batch training of a
    graph network: the same whole set every epoch, one step per `fit`)."""
    size = dict(args).get("batch_size")
    made = producer(size) if size is not None else None
    if made is None:
        return ""
    if made.name == "host.getitem" and constant_value(made.operands[1]) == 0:
        shape = producer(made.operands[0])
        if shape is not None and shape.name == "host.getattr" and \
                string_attr(shape, "attr") == "shape":
            return "`batch_size` is an array's length (`.shape[0]`): one batch of the whole set"
    if made.name == "host.call" and string_attr(made, "qualname") == "builtins.len":
        return "`batch_size` is a length (`len(...)`): one batch of the whole set"
    return ""


def _one_example(value, scope, depth: int = 0) -> str:
    """How the input is shown to be one example ("" when it is not)."""
    if depth > 3:
        return ""
    op = definition(value, scope)
    if op is None:
        return _through_parameter(value, scope, _one_example, depth)
    if op.name == "host.getitem":
        index = producer(op.operands[1])
        first = producer(index.operands[0]) if index is not None and \
            index.name == "host.tuple" and index.operands else index
        if first is not None and (first.name == "host.constant" and
                                  constant_value(first.result) is None or
                                  string_attr(first, "qualname") == "numpy.newaxis"):
            return "a new leading axis of size 1"
        if first is not None and first.name == "host.slice" and unit_slice(first):
            return "a slice of one row"
        return ""
    if op.name != "host.call":
        return ""
    qualname, method = string_attr(op, "qualname"), string_attr(op, "method")
    args = call_arguments(op)
    positional = [v for k, v in args if not k]
    if qualname in ("numpy.reshape", "tensorflow.reshape") and len(positional) > 1:
        return "reshaped to one row" if _leading_one(positional[1]) else ""
    if method == "reshape" and not qualname.startswith(("numpy.", "tensorflow.")) and \
            positional:  # `s.reshape(1, -1)`, `s.reshape((1, n))`
        return "reshaped to one row" if _leading_one(positional[0]) or \
            constant_value(positional[0]) == 1 else ""
    if qualname in ("numpy.expand_dims", "tensorflow.expand_dims"):
        axis = dict(args).get("axis", positional[1] if len(positional) > 1 else None)
        return "a new leading axis of size 1" if axis is not None and \
            constant_value(axis) == 0 else ""
    if qualname in ("numpy.array", "numpy.asarray") and positional:
        display = producer(positional[0])
        return "an array of one example" if display is not None and \
            display.name in ("host.list", "host.tuple") and len(display.operands) == 1 else ""
    return ""


def _through_parameter(value, scope, check, depth: int) -> str:
    """`check` of the arguments every call of the function `scope` (of this file) passes
    for its parameter `value`, when it holds for all of them ("" otherwise)."""
    passed = passed_arguments(value) if scope.name == "host.func" else None
    found = [check(argument, enclosing_scope(call), depth + 1)
             for argument, call in passed or ()]
    return found[0] if found and all(found) else ""


def _leading_one(shape) -> bool:
    display = producer(shape)
    return display is not None and display.name in ("host.list", "host.tuple") and \
        bool(display.operands) and constant_value(display.operands[0]) == 1


# --- the pass -----------------------------------------------------------------------------

def _builds_model(loop) -> bool:
    """Whether an iteration of `loop` constructs or compiles a model (a sweep, a
    cross-validation fold): one prediction per new model is what the loop is for."""
    return any(op.name == "host.call" and (
        string_attr(op, "method") == "compile" or
        string_attr(op, "harp.kind") == "module" and
        string_attr(op, "effect") in ("construct", "io")) for op in walk(loop))


#: method -> what replaces it
_ON_BATCH = {"predict": "predict_on_batch", "fit": "train_on_batch"}
#: Keras and TensorFlow calls that change a model's weights
_TRAINS = ("fit", "train_on_batch", "fit_generator", "apply_gradients", "minimize")


def independent_predict(op) -> str:
    """The receiver of a Keras `model.predict(x)` whose `x` is an element the loop around
    it iterates (`for state, action, reward, next_state, done in minibatch`) and whose
    calls are independent: the input comes from the loop's own element, and nothing in the
    loop trains that model (`fit` of another model, the online one, leaves a target model's
    predictions the same). Its calls can be one batched call (HARP403). "" otherwise."""
    if op.name != "host.call" or string_attr(op, "method") != "predict" or \
            len(op.operands) < 2:
        return ""
    loop = enclosing_loop(op)
    if loop is None or loop.name != "host.for":
        return ""
    scope = enclosing_scope(op)
    receiver_value = producer(op.operands[0]).operands[0]
    if not _keras_value(receiver_value, scope):
        return ""
    args = call_arguments(op)
    data = next((v for k, v in args if not k), None)
    element = producer(data) if data is not None else None
    store = reaching_store(element) if element is not None and \
        element.name == "host.load" else None
    if store is None or not from_loop_element(store.operands[0], loop):
        return ""  # not what the loop binds from its element, or rebound since
    receiver = string_attr(op, "harp.receiver")
    if not receiver or any(o.name == "host.call" and string_attr(o, "method") in _TRAINS and
                           string_attr(o, "harp.receiver") == receiver for o in walk(loop)):
        return ""
    return receiver


def run(module, pass_=None) -> None:
    for op in walk(module):
        method = string_attr(op, "method")
        if op.name != "host.call" or method not in _ON_BATCH or len(op.operands) < 2:
            continue
        if independent_predict(op):
            continue  # one batched call is the better fix: HARP403 reports it
        found = loop_of(op)
        if found is None:
            continue
        loop, func, site = found
        scope = enclosing_scope(op)
        proved = _keras_value(producer(op.operands[0]).operands[0], scope)
        speculated = "" if proved else _keras_by_use(op)
        if not (proved or speculated):
            continue
        args = call_arguments(op)
        positional = [v for k, v in args if not k]
        data = positional[0] if positional else dict(args).get("x")
        epochs = dict(args).get("epochs") or dict(args).get("nb_epoch")  # (Keras 1's name)
        whole = _whole_set_batch(args)
        if data is None or string_attr(producer(data), "harp.kind") == "dataloader" or \
                func is None and not whole and invariant_in(data, loop,
                                                            clobbered=loop_mutates(loop)) or \
                epochs is not None and stated_int(epochs) != 1:
            continue  # a dataset, the same input every iteration, or a real training run
        subject = string_attr(op, "harp.receiver") or "the model"
        assumptions = [
            Assumption("keras-model", subject, "low" if proved else "medium",
                       "proved" if proved else "speculated", proved or speculated),
            loop_runs(loop),
        ]
        assumptions += run_rate(site, loop)  # its guards, and an evaluation pass's role
        waiting = paced(op, loop)  # a loop that draws every frame or sleeps: the call is lost in it
        if waiting is not None:
            assumptions.append(waiting)
        if few_iterations(loop) or _builds_model(loop):
            assumptions.append(Assumption(
                "hot-loop", describe_loop(loop), "high", "speculated",
                "a handful of iterations, or one call per model the loop builds"))
        network = _image_network(producer(op.operands[0]).operands[0], scope)
        if network:  # blind readers: 1-5 ms of set-up beside a deep CNN on a full image
            assumptions.append(Assumption(
                "step-share", subject, "high", "speculated",
                f"the model is built on `{network}`, a deep image network: a forward pass "
                f"costs tens of milliseconds an image, and the call's set-up a few percent"))
        one = _one_example(data, scope)
        # `epochs=epochs`, 1 by every call the program shows: the rewrite rests on it too
        given = "" if epochs is None or constant_value(epochs) == 1 else \
            "; and `epochs` is 1 on every call, as the program's calls leave it"
        assumptions.append(
            Assumption("one-batch", "the input", "low", "proved", f"it is {one}")
            if one and not given else
            Assumption("one-batch", "the input", "low", "speculated",
                       f"{whole}: assumed to cover every row of the input{given}")
            if whole and not one else
            Assumption("one-batch", "the input", "medium", "speculated",
                       f"it is {one}{given}" if one else
                       f"the input is a few examples, small enough to run as one batch{given}"))
        where = f"in `{string_attr(func, 'sym_name')}`, called " if func is not None else ""
        instead = f"`{subject}.{_ON_BATCH[method]}(...)`"
        if method == "predict":
            instead += f" (or `{subject}(x, training=False)`), or predict the whole set at once"
        message = (f"Keras `{subject}.{method}()` runs {where}on every iteration of "
                   f"{describe_loop(loop)}: each call sets up a data adapter, callbacks and "
                   f"a loop over batches for {'one batch' if whole and not one else 'a few rows'}; "
                   f"call {instead}")
        # the wrapper's callers are where a user changes the call (`self.predict(s)` of a
        # `def predict(self, s): return self.model.predict(s)`)
        related = [site, *calls_of(func)] if func is not None else []
        record_hint(op, HINT, message, assumptions, related=related)


# --- the fix ------------------------------------------------------------------------------

#: keywords a fix drops: they only print, or change nothing for one batch of one epoch
_DROPPED = {"predict": ("verbose",),
            "fit": ("verbose", "epochs", "nb_epoch", "batch_size", "shuffle")}


def fix_keras_call(module, positions, hint):
    """`m.predict(x, verbose=0)` -> `m.predict_on_batch(x)`; `m.fit(x, y, epochs=1,
    verbose=0)` -> `m.train_on_batch(x, y)` when its History is not used."""
    call = node_at(positions, hint.span, cst.Call)
    method = call.func.attr.value if isinstance(call.func, cst.Attribute) else ""
    if method not in _ON_BATCH:
        raise Decline("not a `.predict(...)` or `.fit(...)` call")
    arity = 1 if method == "predict" else 2
    kept = [a for a in call.args if not (a.keyword and a.keyword.value in _DROPPED[method])]
    other = kept[arity:]
    if other:
        names = ", ".join(f"`{a.keyword.value}=`" if a.keyword else "more positional "
                          "arguments" for a in other)
        raise Decline(f"`{method}` is called with {names}, which `{_ON_BATCH[method]}` "
                      f"does not take")
    if len(kept) < arity or any(a.keyword or a.star for a in kept):
        raise Decline(f"the inputs of `{method}` are not passed by position")
    if method == "fit" and not isinstance(syntax.parents(module).get(call), cst.Expr):
        raise Decline("the program uses what `fit` returns (a History); "
                      "`train_on_batch` returns the loss")
    epochs = next((a.value for a in call.args if a.keyword and a.keyword.value in
                   ("epochs", "nb_epoch")), None)
    if epochs is not None and not (isinstance(epochs, cst.Integer) and epochs.value == "1"):
        unproved("`epochs` is 1 on every call: the program's calls of this function pass "
                 "1 or leave it to its default, but a caller harp cannot see may not")
    if not any(a.kind == "one-batch" and established(a) for a in hint.assumptions):
        unproved(f"the input is one batch: `{_ON_BATCH[method]}` runs it whole, where "
                 f"`{method}` splits it into batches of 32"
                 + (" and shuffles them" if method == "fit" else ""))
    kept[-1] = kept[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    return module.deep_replace(call, call.with_changes(
        func=call.func.with_changes(attr=cst.Name(_ON_BATCH[method])), args=kept))


RULE = Rule(
    flag="harp-keras-call-in-loop",
    summary="Find Keras predict and fit called per step in loops (HARP404)",
    run=run,
    hint=HintSpec(
        id="HARP404",
        name="keras-call-in-loop",
        finds="Keras `model.predict(x)` or a one-epoch `model.fit(x, y)` on every iteration "
              "of a loop (per environment step, per example or per minibatch)",
        why="`predict` and `fit` set up a data adapter, callbacks and a loop over batches on "
            "each call, about a hundred times the cost of a small model on one batch",
        refactoring="`model.predict_on_batch(x)` (or `model(x, training=False)`) and "
                    "`model.train_on_batch(x, y)`, or one call over the whole set",
        before="for t in range(500):\n"
               "    q = model.predict(np.reshape(state, [1, 4]), verbose=0)\n"
               "    state = env_step(np.argmax(q[0]))\n",
        after="for t in range(500):\n"
              "    q = model.predict_on_batch(np.reshape(state, [1, 4]))\n"
              "    state = env_step(np.argmax(q[0]))\n",
        assumptions=("keras-model", "loop-runs", "hot-loop", "every-iteration", "one-batch",
                     "step-share"),
    ),
    fix=Fix(
        apply=fix_keras_call,
        summary="safe when the input is proved one example",
        rewrite="`.predict(x)` becomes `.predict_on_batch(x)` (`verbose=` dropped: a "
                "progress bar), `.fit(x, y, epochs=1)` becomes `.train_on_batch(x, y)`; "
                "safe when the input is shaped as one example on the way (`np.reshape(s, "
                "[1, n])`, `np.expand_dims(s, 0)`, `s[None]`, `x[i:i + 1]`), otherwise "
                "`--unsafe-fixes` (the `*_on_batch` methods run the whole input as one "
                "batch), and so when `epochs` is a parameter every call of the program "
                "leaves at 1 (`def train(self, x, y, epochs=1)`: a caller outside it may not)",
        declines="other arguments (`callbacks`, `steps`, `validation_data`...), the input "
                 "passed by keyword, or a `fit` whose History the program uses",
    ),
)
