"""The loops library runners run: a function of the program called once per batch.

`engine.train(processor, iterator)` (torchnet), `Engine(update).run(loader)` (ignite) and
`trainer.fit(model, loader)` (Lightning: `model.training_step(batch, i)`) run the program's
step in a loop inside the library, which the program's own IR does not show: its step
then looks like a function nothing calls in a loop, and every per-step fact about it is
lost. This is the augmented graph's model of such a library: after lowering, each call of
a runner the catalogue knows (`[harp.step_runners]`) is followed by the loop it runs,
`for batch in data: step(batch)`, with the `.backward()` a training runner calls on the
loss the step returns, and `torch.no_grad()` around a step the runner evaluates under it.
The loop is located at the runner's call and marked `harp.runner` (its ops
`harp.synthetic`): analyses find the step's loop through the call graph as they find a
hand-written one, messages name it as the runner's, and no hint is ever recorded at its
ops (there is no code of the program to fix there).
"""

from __future__ import annotations

from torch_mlir import ir

from harp_ir import callgraph, catalogue
from harp_ir.analysis import (
    argument,
    cached_walks,
    producer,
    same_op,
    string_attr,
    walk,
)

#: marks an op the model added, not the program
SYNTHETIC = "harp.synthetic"
#: on a modelled loop: the runner's call as the source shows it (`engine.train`)
RUNNER = "harp.runner"
#: on a runner's call whose loops were added
MODELLED = "harp.runner_modelled"


def model_library_loops(module: ir.Module) -> int:
    """Add the loop each known runner call runs after the call; how many were added. The
    runners are found first, with the analyses' facts shared (the IR does not change while
    they are asked), then the loops are added."""
    known = catalogue.load()
    methods = {key.rsplit(".", 1)[1] for key in known.step_runners}
    planned = []
    with cached_walks():
        for call in walk(module.operation):
            callee = producer(call.operands[0]) if call.name == "host.call" else None
            if callee is None or callee.name != "host.getattr" or \
                    string_attr(callee, "attr") not in methods or \
                    SYNTHETIC in call.attributes or MODELLED in call.attributes:
                continue  # (a module analysed twice gets its loops once)
            found = callgraph.runner_maker(call, own_classes=False)  # (cheap: no tables)
            if found is not None:
                planned += [(call, found[0], spec) for spec in
                            known.step_loops(found[1], string_attr(callee, "attr"))]
    for call, _, _ in planned:
        call.attributes[MODELLED] = ir.UnitAttr.get()
    return sum(_add_loop(call, made, spec) for call, made, spec in planned)


def _argument(call: ir.Operation | None, where: dict, position: str) -> ir.Value | None:
    """The argument `where` names (its keyword, else the position under `position`)."""
    if call is None:
        return None
    return argument(call, where.get(position, -1), where.get("keyword"))


def _dominates(value: ir.Value, at: ir.Operation) -> bool:
    """Whether `value`, defined by an op, is visible at `at`: its op comes before `at`, or
    before an op holding `at`, in the same block."""
    defining = producer(value)
    if defining is None:
        return False
    block = defining.block
    holder = at
    while holder is not None:
        if holder.block == block:
            for op in block.operations:
                if same_op(op.operation, defining):
                    return True
                if same_op(op.operation, holder):
                    return False
        holder = holder.parent
    return False


def _add_loop(call: ir.Operation, made: ir.Operation | None, spec: dict) -> int:
    where = spec["step"]
    step = _argument(made, where, "maker_arg") if "maker_arg" in where else \
        _argument(call, where, "arg")
    if step is None or not _dominates(step, call):
        return 0
    data = _argument(call, spec["data"], "arg")
    obj = ir.Type.parse("!host.obj")
    block = call.block
    after = next(i for i, o in enumerate(block.operations) if same_op(o.operation, call))
    ip = ir.InsertionPoint(block.operations[after + 1])
    loc = call.location
    mark = {SYNTHETIC: ir.UnitAttr.get()}

    def make(name, operands=(), attrs=None, results=1, regions=0, at=None):
        return ir.Operation.create(name, results=[obj] * results, operands=list(operands),
                                   attributes={**mark, **(attrs or {})}, regions=regions,
                                   loc=loc, ip=at or ip)

    source = spec["data"].get("method")
    if data is None and source:  # `trainer.fit(model, datamodule=dm)`: dm.train_dataloader()
        holder = _argument(call, {"keyword": "datamodule"}, "arg") or step
        method = make("host.getattr", [holder], attrs={"attr": ir.StringAttr.get(source)})
        data = make("host.call", [method.result], attrs={
            "effect": ir.StringAttr.get("unknown"), "method": ir.StringAttr.get(source),
            "kwnames": ir.ArrayAttr.get([])}).result
    if data is None:  # batches the library finds itself
        data = make("host.constant", attrs={"kind": ir.StringAttr.get("none"),
                                             "value": ir.UnitAttr.get()}).result
    callee = producer(call.operands[0])
    text = f"{string_attr(callee, 'harp.receiver') or _source_name(callee.operands[0])}." \
        f"{string_attr(callee, 'attr')}"
    loop = make("host.for", [data], results=0, regions=2, attrs={
        "target": ir.StringAttr.get("batch"), RUNNER: ir.StringAttr.get(text),
        "harp.mutates": ir.ArrayAttr.get([]),
        "harp.mutates_status": ir.StringAttr.get("speculated")})
    body = loop.regions[0].blocks.append(obj, arg_locs=[loc])
    orelse = loop.regions[1].blocks.append()
    make("hostcf.yield", results=0, at=ir.InsertionPoint(orelse))
    inner = ir.InsertionPoint(body)
    if spec.get("no_grad"):
        manager = make("host.constant", at=inner, attrs={
            "kind": ir.StringAttr.get("none"), "value": ir.UnitAttr.get()})
        scope = make("host.with", [manager.result], results=0, regions=1, at=inner,
                     attrs={"harp.contexts": ir.ArrayAttr.get(
                         [ir.StringAttr.get("torch.no_grad")])})
        make("hostcf.yield", results=0, at=inner)
        block_of_step = scope.regions[0].blocks.append(obj, arg_locs=[loc])
        inner = ir.InsertionPoint(block_of_step)
    function = step
    attrs = {"effect": ir.StringAttr.get("unknown")}
    if "method" in where:
        function = make("host.getattr", [step], at=inner,
                        attrs={"attr": ir.StringAttr.get(where["method"])}).result
        attrs["method"] = ir.StringAttr.get(where["method"])
    arguments = []
    for kind in spec.get("args", ["batch"]):
        if kind == "batch":
            arguments.append(body.arguments[0])
        elif kind == "runner":
            arguments.append(callee.operands[0])
        else:  # the batch's index
            arguments.append(make("host.constant", at=inner, attrs={
                "kind": ir.StringAttr.get("int"),
                "value": ir.IntegerAttr.get(ir.IntegerType.get_signless(64), 0)}).result)
    attrs["kwnames"] = ir.ArrayAttr.get([ir.StringAttr.get("")] * len(arguments))
    result = make("host.call", [function, *arguments], at=inner, attrs=attrs).result
    backward = spec.get("backward", "")
    if backward:
        loss = result
        if backward != "result":  # "result 0": the first of what the step returns
            index = make("host.constant", at=inner, attrs={
                "kind": ir.StringAttr.get("int"),
                "value": ir.IntegerAttr.get(ir.IntegerType.get_signless(64),
                                            int(backward.split()[1]))}).result
            loss = make("host.getitem", [result, index], at=inner).result
        method = make("host.getattr", [loss], at=inner, attrs={
            "attr": ir.StringAttr.get("backward"),
            "qualname": ir.StringAttr.get("torch.Tensor.backward")}).result
        make("host.call", [method], at=inner, attrs={
            "effect": ir.StringAttr.get("mutate"), "method": ir.StringAttr.get("backward"),
            "qualname": ir.StringAttr.get("torch.Tensor.backward"),
            "kwnames": ir.ArrayAttr.get([])})
    make("hostcf.yield", results=0, at=inner)
    return 1


def _source_name(value: ir.Value) -> str:
    op = producer(value)
    return string_attr(op, "name") if op is not None and op.name == "host.load" else "runner"


def synthetic(op: ir.Operation) -> bool:
    """Whether `op` is one the model added, or is in a loop it added."""
    while op is not None and op.name != "host.module":
        if SYNTHETIC in op.attributes:
            return True
        op = op.parent
    return False
