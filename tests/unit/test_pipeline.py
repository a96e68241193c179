import pytest
from torch_mlir import ir

from harp_ir.passes import analysis_pipeline, load, module_name, passes
from harp_ir.pipeline import PipelineError, build, pipeline_elements, split_top_level


def test_split_respects_brackets():
    assert split_top_level("a,b(c,d),e{x=1,y=2}") == ["a", "b(c,d)", "e{x=1,y=2}"]


def test_unbalanced_pipeline_is_an_error():
    with pytest.raises(PipelineError):
        split_top_level("a,b(c")
    with pytest.raises(PipelineError):
        split_top_level("a)")


def test_builtin_module_wrapper_is_stripped():
    assert pipeline_elements("builtin.module(cse, harp-host-sync-in-loop)") == [
        "cse", "harp-host-sync-in-loop"]


def test_unknown_upstream_pass_is_a_pipeline_error(ctx):
    with pytest.raises(PipelineError, match="no-such-pass"):
        build(["no-such-pass"])


def test_every_registered_pass_loads_from_its_flag_named_module():
    for flag in passes():
        assert module_name(flag).endswith(flag.removeprefix("harp-").replace("-", "_"))
        assert callable(load(flag))
    assert set(analysis_pipeline()) <= set(passes())


def test_mixed_pipeline_runs_and_verifies(ctx):
    m = ir.Module.parse('%0 = "host.load"() {name = "x"} : () -> !host.obj')
    build(["canonicalize", "harp-host-sync-in-loop", "cse"]).run(m.operation)
    assert m.operation.verify()


def _training_program(functions: int) -> str:
    body = ["import torch\n"]
    for i in range(functions):
        body.append(f"def train{i}(model, opt):\n    for step in range(1000):\n"
                    f"        loss = model(torch.ones(4, 4).cuda()).sum()\n"
                    f"        loss.backward()\n        opt.step()\n        print(loss.item())\n")
    body.append("".join(f"train{i}(torch.nn.Linear(4, 4).cuda(), None)\n"
                        for i in range(functions)))
    return "".join(body)


@pytest.mark.parametrize("flag", ["harp-host-sync-in-loop", "harp-transfer-in-loop"])
def test_a_pass_driven_by_the_pass_manager_walks_the_program_a_bounded_number_of_times(
        ctx, monkeypatch, flag):
    """harp-opt (or MLIR's pass manager) runs a hint pass with its facts shared: the walks
    of the whole program do not grow with the number of loops and calls it asks about."""
    from harp_ir import analysis
    from harp_ir.frontend.lower import lower_source

    counted = []
    real = analysis._walk

    def counting(op):
        if op.name == "builtin.module":
            counted.append(op)
        return real(op)

    monkeypatch.setattr(analysis, "_walk", counting)
    walks = []
    for functions in (5, 40):
        module = lower_source(_training_program(functions), "train.py")
        counted.clear()
        build([flag]).run(module.operation)
        walks.append(len(counted))
        assert "harp.hints" in str(module)
    assert walks[0] == walks[1] <= 3, walks


def test_hint_passes_are_verified_once_after_the_run_and_a_bad_annotation_is_caught(
        ctx, monkeypatch):
    """harp-opt verifies after a run of hint passes (they only annotate), as MLIR skips the
    verifier after a pass that preserves all analyses; an annotation of the wrong kind
    written by one of them is still an error."""
    from harp_ir import passes as registry
    from harp_ir import pipeline

    hooks = []
    real_verify = ir.Operation.verify

    m = ir.Module.parse('%0 = "host.load"() {name = "x"} : () -> !host.obj')
    flags = ["harp-host-sync-in-loop", "harp-transfer-in-loop", "harp-host-random-to-device"]
    monkeypatch.setattr(ir.Operation, "verify",
                        lambda op: hooks.append(op.name) or real_verify(op), raising=False)
    pipeline.run(flags, m.operation)
    assert hooks == ["builtin.module"]

    def corrupting(op, pass_):
        load_op = next(o for o in op.regions[0].blocks[0].operations)
        load_op.attributes["harp.kind"] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), 7)

    real_load = registry.load
    monkeypatch.setattr(pipeline, "load", lambda name: corrupting
                        if name == "harp-transfer-in-loop" else real_load(name))
    with pytest.raises(ir.MLIRError, match="harp.kind"):
        pipeline.run(flags, m.operation)


def test_an_attribute_of_the_wrong_kind_is_an_error_at_its_op_not_a_traceback(ctx):
    """A module built in memory is not verified before the passes run (`harp analyze`
    runs them so): the passes' typed accessors report the attribute instead of raising."""
    from harp_ir.analysis import walk
    from harp_ir.frontend.lower import lower_source

    module = lower_source("import tensorflow as tf\n\nfor i in range(9):\n"
                          "    @tf.function\n    def step(x):\n        return x\n", "t.py")
    func = next(op for op in walk(module.operation) if op.name == "host.func")
    func.attributes["harp.decorators"] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), 7)
    with pytest.raises(ir.MLIRError) as e:
        build(list(analysis_pipeline()), verify_each=False).run(module.operation)
    [diagnostic] = e.value.error_diagnostics
    assert diagnostic.message == ("'host.func' op attribute 'harp.decorators' must be an "
                                  "array of strings, not 7 : i64")
    assert "t.py\":5:5" in str(diagnostic.location)  # the def (after its decorator)
