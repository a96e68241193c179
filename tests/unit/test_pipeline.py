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
