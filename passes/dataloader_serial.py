"""--harp-dataloader-serial (HARP501): a `DataLoader` without worker processes or pinned
memory in a training program, or a `tf.data` map run on one example at a time.

Finds: `torch.utils.data.DataLoader(...)` with no `num_workers` (or `num_workers=0`), or
without `pin_memory=True`, in a module that trains (calls `backward()`): batches are then
loaded in the training process, serially with the steps, and copied from pageable memory.

What it rests on, from the shared facts: the program places tensors on an accelerator
(in a CPU-only file pinned memory is useless and workers compete with the training for
the same cores: high risk); loading costs enough to pay for workers (a torchvision
dataset or per-sample `transform`s decode images in Python; an in-memory `TensorDataset`
is indexed in microseconds, and a dataset harp cannot see into may cost anything: high
risk); workers are missing, not only
pinned memory (pinned memory alone speeds up the copy a little: high risk); the
arguments are all visible (`**kwargs` may set both: high risk); `num_workers=0` was not
chosen on purpose (high risk). Only hints with none of the high-risk ones reach the
default report.

TensorFlow's counterpart: `ds.map(fn)` with no `num_parallel_calls` on a `tf.data` pipeline
of a program that trains (`fit`, `apply_gradients`, ...) runs `fn` on one example at a time
on one core. The loading cost is proved when `fn`, or a function it calls, decodes, reads
or resizes images or runs Python (`tf.py_function`); otherwise it is a high-risk speculation.
"""

from __future__ import annotations

from harp_ir import callgraph
from harp_ir.analysis import (
    Assumption,
    accelerator,
    call_arguments,
    called_function,
    called_functions,
    class_methods,
    constant_value,
    definition,
    definitions,
    describe_loop,
    enclosing_scope,
    in_other_file,
    instance_class,
    producer,
    reaching_definition,
    record_hint,
    runs_inner_loop,
    same_op,
    string_attr,
    walk,
)
from harp_ir.findings import RISKS
from harp_ir.rules import HintSpec, Rule

HINT = "HARP501"
LOADER = "torch.utils.data.DataLoader"
IN_MEMORY = ("torch.utils.data.TensorDataset",)


WRAPPERS = ("torch.utils.data.Subset", "torch.utils.data.ConcatDataset", "copy.deepcopy",
            "copy.copy")
#: calls that split a dataset into parts that load as it does
SPLITS = ("torch.utils.data.random_split", "torch.utils.data.dataset.random_split")


def dataset_cost(value, scope, depth: int = 0) -> str:
    """What loading one example of the dataset `value` costs, as far as the code shows:
    "memory" (a `TensorDataset`: tensors indexed in microseconds), "decode" (a torchvision
    dataset, or one given per-sample `transform`s: images decoded and converted in
    Python), or "unknown" (a dataset the caller passes in, or one harp cannot see into)."""
    made = reaching_definition(value, scope)
    if made is not None and made.name == "host.unpack":  # `train, valid = random_split(ds)`
        made = producer(made.operands[0])
        if made is None or string_attr(made, "qualname") not in SPLITS:
            return "unknown"
    if made is None or made.name != "host.call" or depth > 3:
        return "unknown"
    qualname = string_attr(made, "qualname")
    args = call_arguments(made)
    if qualname in IN_MEMORY:
        return "memory"
    if qualname in WRAPPERS + SPLITS and args:  # a view or a copy of the dataset
        return dataset_cost(args[0][1], enclosing_scope(made), depth + 1)
    if qualname.startswith("torchvision.datasets.") or any(
            k.startswith("transform") for k, _ in args):
        return "decode"
    if not qualname and any(dataset_cost(v, scope, depth + 1) == "decode" for _, v in args):
        return "decode"  # a dataset class of the program wrapping a decoding one
    cls = instance_class(value, made)
    getitem = class_methods(cls).get("__getitem__") if cls is not None else None
    if getitem is not None and _decodes(getitem):
        return "decode"  # its `__getitem__` opens an image or applies `self.transform`
    return "unknown"


#: per-example reading and decoding in a dataset's `__getitem__`
IMAGE_READERS = ("PIL.Image.open", "cv2.imread", "cv2.imdecode", "imageio.", "skimage.io.",
                 "torchvision.io.", "torchvision.datasets.folder.")


def _decodes(getitem) -> bool:
    """Whether a dataset's `__getitem__` reads or decodes an image, or applies a transform
    it holds (`self.transform(img)`), on every example."""
    for op in walk(getitem):
        if op.name != "host.call":
            continue
        if string_attr(op, "qualname").startswith(IMAGE_READERS):
            return True
        callee = producer(op.operands[0])
        if callee is not None and callee.name == "host.getattr" and \
                string_attr(callee, "attr").startswith("transform"):
            return True
    return False


# --- tf.data: `Dataset.map(fn)` without `num_parallel_calls` ------------------------------

#: Dataset methods that return a dataset (a pipeline is a chain of them)
DATASET_METHODS = frozenset({
    "map", "batch", "padded_batch", "shuffle", "repeat", "prefetch", "cache", "filter",
    "flat_map", "interleave", "take", "skip", "unbatch", "zip", "concatenate", "with_options",
    "apply", "shard", "enumerate"})
#: per-example work that costs milliseconds: reading, decoding and resizing images, Python
DECODING = ("tensorflow.io.decode_", "tensorflow.image.decode_", "tensorflow.io.read_file",
            "tensorflow.image.resize", "tensorflow.py_function", "tensorflow.numpy_function",
            "tensorflow.compat.v1.py_func")
#: calls that make a model train: a Keras fit, an optimizer's update, autograd's backward
TRAINING_METHODS = ("fit", "fit_generator", "train_on_batch", "apply_gradients", "minimize",
                    "backward")


def tf_dataset(value, scope) -> bool:
    """Whether `value` is a `tf.data` pipeline: made by a `tf.data` constructor, by a
    dataset method of one (`ds.shuffle(512).batch(8)`), or returned by a function of the
    program every return of which is one; a local bound in several places must be one at
    each."""
    return _pipeline(value, scope)[0]


def _pipeline(value, scope, depth: int = 0, pending: frozenset = frozenset()
              ) -> tuple[bool, set[str]]:
    """(whether `value` is a `tf.data` pipeline, the `map` calls it is built from, by
    location), followed back through locals bound in several places, dataset methods and
    the returns of the program's functions. A local met again on the way (`ds =
    ds.batch(8)`) leaves the answer to its other bindings."""
    if depth > 6 or scope is None:
        return False, set()
    load = producer(value)
    name = (str(scope.location), string_attr(load, "name")) if load is not None and \
        load.name == "host.load" else None
    if name in pending:
        return True, set()
    pending = pending | {name} if name else pending
    made = definitions(value, scope)
    answers = [_made_pipeline(m, depth, pending) for m in made]
    return bool(made) and all(is_one for is_one, _ in answers), \
        set().union(*(maps for _, maps in answers))


def _made_pipeline(made, depth: int, pending: frozenset) -> tuple[bool, set[str]]:
    """`_pipeline` of the op that computes a binding."""
    if made.name != "host.call":
        return False, set()
    if string_attr(made, "qualname").startswith("tensorflow.data."):
        return True, set()
    callee = producer(made.operands[0])
    method = string_attr(made, "method")
    if method in DATASET_METHODS and callee is not None and callee.name == "host.getattr":
        is_one, maps = _pipeline(callee.operands[0], enclosing_scope(made), depth + 1,
                                 pending)
        return is_one, (maps | {str(made.location)} if method == "map" else maps)
    func = called_function(made)
    answers = [_pipeline(r.operands[0], func, depth + 1, pending) for r in walk(func)
               if r.name == "hostcf.return" and r.operands and
               same_op(enclosing_scope(r), func)] if func is not None else []
    return bool(answers) and all(is_one for is_one, _ in answers), \
        set().union(*(maps for _, maps in answers))


def _function_of(value, scope):
    """The `host.func` a value holds: a lambda, or a function of the program by name."""
    made = definition(value, scope)
    return made if made is not None and made.name == "host.func" else None


def decoding_call(func, depth: int = 0) -> str:
    """The first call of `func`, or of a function of the program it calls (two levels),
    that decodes, reads or resizes per example, or runs Python ("" when none)."""
    for op in walk(func):
        if op.name != "host.call":
            continue
        if string_attr(op, "qualname").startswith(DECODING):
            return string_attr(op, "qualname")
        for callee in called_functions(op) if depth < 2 else ():
            found = decoding_call(callee, depth + 1)
            if found:
                return found
    return ""


def _evaluation_maps(ops) -> set[str]:
    """The `map` calls whose pipelines only feed evaluation: Keras' `validation_data=`, or
    loops that run no training step in a program that trains (`callgraph.evaluation_loop`),
    and no training (`fit`'s data, a training loop)."""
    fed: dict[bool, set[str]] = {True: set(), False: set()}  # evaluation? -> maps
    for op in ops:
        if op.name == "host.call" and string_attr(op, "method") in ("fit", "fit_generator"):
            for keyword, value in call_arguments(op):
                if keyword in ("", "x", "validation_data"):
                    fed[keyword == "validation_data"] |= _pipeline(value, enclosing_scope(op))[1]
        elif op.name == "host.for":
            iterable = producer(op.operands[0])
            value = iterable.operands[1] if iterable is not None and len(iterable.operands) > 1 \
                and string_attr(iterable, "qualname") == "builtins.enumerate" else op.operands[0]
            fed[bool(callgraph.evaluation_loop(op))] |= _pipeline(value, enclosing_scope(op))[1]
    return fed[True] - fed[False]


def _report_serial_maps(ops) -> None:
    evaluation = None  # computed on the first map
    for op in ops:
        callee = producer(op.operands[0]) if op.name == "host.call" else None
        if string_attr(op, "method") != "map" or callee is None or \
                callee.name != "host.getattr":
            continue
        args = call_arguments(op)
        if any(k in ("num_parallel_calls", "**") for k, _ in args) or len(args) > 1:
            continue  # set (or passed on positionally, or through `**kwargs`)
        scope = enclosing_scope(op)
        if not args or args[0][0] or not tf_dataset(callee.operands[0], scope):
            continue
        func = _function_of(args[0][1], scope)
        decodes = decoding_call(func) if func is not None else ""
        message = ("this `tf.data` map runs its function on one example at a time, serially "
                   "with the training steps; pass `num_parallel_calls=tf.data.AUTOTUNE` "
                   "(the order of elements is kept)")
        assumptions = [accelerator(op)]
        evaluation = _evaluation_maps(ops) if evaluation is None else evaluation
        if str(op.location) in evaluation:
            assumptions.append(Assumption(
                "loading-cost", "", "high", "speculated",
                "the pipeline feeds only evaluation (`validation_data`, or loops that run no "
                "training step): loaded once per evaluation, not on every training step"))
        elif decodes:
            assumptions.append(Assumption(
                "loading-cost", "", "low", "proved",
                f"the function calls `{decodes}` on every example"))
        else:
            assumptions.append(Assumption(
                "loading-cost", "", "high", "speculated",
                "the function does no decoding, reading or Python work that harp can see: "
                "a cheap map gains little from parallel calls"))
        record_hint(op, HINT, message, assumptions)


def run(module, pass_=None) -> None:
    ops = list(walk(module))
    if any(o.name == "host.call" and string_attr(o, "method") in TRAINING_METHODS
           for o in ops):
        _report_serial_maps(ops)
    if not any(o.name == "host.call" and string_attr(o, "method") == "backward"
               for o in ops) and not any(callgraph.runs_library_training(o) for o in ops):
        return  # a program that does not train (a library's trainer run counts)
    for op in ops:
        if op.name != "host.call" or string_attr(op, "qualname") != LOADER:
            continue
        args = call_arguments(op)
        kw = dict(args)
        workers = kw.get("num_workers")
        missing = []
        if workers is None or constant_value(workers) == 0:
            missing.append("`num_workers`")
        if "pin_memory" not in kw or constant_value(kw["pin_memory"]) is False:
            missing.append("`pin_memory=True`")
        if not missing:
            continue
        message = (f"this DataLoader feeds a training loop without {' and '.join(missing)}: "
                   f"batches are prepared serially with the training steps; set "
                   f"`num_workers` (e.g. the number of cores) and `pin_memory=True`")
        assumptions = [
            Assumption("picklable-dataset", "", "low", "speculated",
                       "the dataset can be sent to worker processes"),
            accelerator(op),
        ]
        if any(k == "**" for k, _ in args):
            assumptions.append(Assumption(
                "loading-cost", "", "high", "speculated",
                "`**` arguments may set num_workers and pin_memory (as `**kwargs` built "
                "for an accelerator usually do)"))
        elif "`num_workers`" not in missing:
            assumptions.append(Assumption(
                "loading-cost", "", "high", "speculated",
                "workers are set; pinned memory alone speeds up only the copy to the device"))
        elif (cost := dataset_cost(args[0][1] if args and not args[0][0] else
                                   kw.get("dataset", op.operands[0]),
                                   enclosing_scope(op))) == "memory":
            assumptions.append(Assumption(
                "loading-cost", "", "high", "speculated",
                "the dataset is tensors in memory (a TensorDataset): a batch costs "
                "microseconds to gather, workers would mostly add start-up and copies"))
        elif cost == "unknown":
            assumptions.append(Assumption(
                "loading-cost", "", "high", "speculated",
                "what loading an example costs is not visible here (a dataset from a "
                "caller, an iterable or a pre-processed one): workers may not pay off"))
        elif workers is not None:
            assumptions.append(Assumption(
                "loading-cost", "", "high", "speculated",
                "`num_workers=0` is set explicitly: assumed not needed (determinism, "
                "memory, a dataset that cannot be pickled)"))
        runs: list = []  # library runners handed the loader, with the role they run it in
        draws: list = []  # (loop, call) where one batch is drawn per iteration
        loops = callgraph.loops_iterating(op.result, runs=runs, draws=draws)
        if loops:  # a helper of another file builds it: the training loop's file decides
            assumptions[1] = min((assumptions[1], *(accelerator(loop) for loop in loops)),
                                 key=lambda a: RISKS.index(a.risk))
        if loops == [] and not runs:
            assumptions.append(Assumption(
                "loading-cost", "", "high", "speculated",
                "nothing in the program iterates this loader"))
        elif loops and len(draws) == len(loops) and \
                all(runs_inner_loop(loop, draw) for loop, draw in draws):
            assumptions.append(Assumption(
                "loading-cost", "", "high", "speculated",
                "the loader gives one batch per iteration of a loop whose training steps are "
                "an inner loop (`next(iter(loader))` once an epoch, for samples or a plot)"))
        elif loops is not None and all(callgraph.evaluation_loop(loop) for loop in loops) \
                and all(role == "evaluate" for _, role in runs):
            library = " or a library's evaluation run" if runs else ""
            assumptions.append(Assumption(
                "loading-cost", "", "high", "speculated",
                f"the loader feeds only evaluation passes (its loops run no backward or "
                f"optimizer step{library}): loaded once, or once per epoch, not on every "
                f"training step"))
        training = [loop for loop in loops or [] if callgraph.training_work(loop)]
        site = _drawn_at(training[0], draws) if training else None
        if site is not None:
            message = message.replace("feeds a training loop",
                                      f"feeds {describe_loop(training[0])}"
                                      f"{in_other_file(training[0], op)}, a training loop,", 1)
        record_hint(op, HINT, message, assumptions, related=[site] if site else [])


def _drawn_at(loop, draws: list):
    """Where `loop` takes its batches: its draw (`next(iter(loader))`), or the iterable of
    its `for` header."""
    drawn = next((draw for at, draw in draws if same_op(at, loop)), None)
    if drawn is not None:
        return drawn
    return producer(loop.operands[0]) if loop.name == "host.for" else None


RULE = Rule(
    flag="harp-dataloader-serial",
    summary="Find DataLoaders without workers or pinned memory (HARP501)",
    run=run,
    hint=HintSpec(
        id="HARP501",
        name="dataloader-serial",
        finds="`DataLoader` without workers or pinned memory, or a `tf.data` `map` without "
              "`num_parallel_calls`, in a training program",
        why="loading and collating batches runs in the training process between steps, and "
            "copies to the device from pageable memory; a serial `tf.data` map decodes one "
            "example at a time on one core",
        refactoring="`num_workers`, `pin_memory`; `num_parallel_calls=tf.data.AUTOTUNE`",
        before="loader = DataLoader(ds, batch_size=64)\n",
        after="loader = DataLoader(ds, batch_size=64, num_workers=4, pin_memory=True)\n",
        assumptions=("accelerator", "picklable-dataset", "loading-cost"),
    ),
)
