"""Every API in the catalogue exists in the installed library versions."""

import importlib
import importlib.util

import pytest

from harp_ir import catalogue
from harp_ir.dialects.host import EFFECTS, KINDS

CAT = catalogue.load()


def resolve(qualname):
    parts = qualname.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        for attr in parts[i:]:
            obj = getattr(obj, attr)
        return obj
    raise ImportError(qualname)


#: libraries the catalogue names that cannot be installed here: the package index's
#: torchvision is built against another torch ("operator torchvision::nms does not exist")
NOT_INSTALLABLE = ("torchvision.",)


@pytest.mark.parametrize("qualname", sorted(CAT.apis))
def test_api_exists_in_installed_library(qualname):
    if qualname.startswith(NOT_INSTALLABLE) and \
            importlib.util.find_spec(qualname.split(".")[0]) is None:
        pytest.skip(f"{qualname.split('.')[0]} is not installed beside this torch")
    assert resolve(CAT.apis[qualname].defined_at) is not None


def test_entries_use_the_dialect_vocabulary():
    for api in CAT.apis.values():
        assert api.effect in EFFECTS and api.returns in KINDS


def test_sync_apis_are_marked():
    assert CAT.lookup("torch.Tensor.item").effect == "sync"
    assert CAT.method("tf", "numpy").qualname == "tensorflow.Tensor.numpy"
    assert CAT.lookup("no.such.api") is None


def test_tensor_only_methods_are_torch_tensor_methods():
    for name in CAT.tensor_only_methods:
        assert CAT.method("torch", name) is not None, name


def test_catalogue_covers_the_libraries_harp_knows():
    assert len(CAT.apis) >= 300
    for module in ("torch", "torch.nn", "torch.nn.functional", "torch.Tensor", "torch.optim",
                   "torch.utils.data", "tensorflow", "tensorflow.keras",
                   "tensorflow.compat.v1", "numpy"):
        assert any(q.startswith(module + ".") for q in CAT.apis), module


def test_methods_resolve_by_receiver_kind():
    assert CAT.method("torch", "step", "optimizer").qualname == "torch.optim.Optimizer.step"
    assert CAT.method("tf", "run", "session").effect == "run"
    assert CAT.method("torch", "eval", "module").effect == "mutate"


def test_tf1_only_names_match_the_installed_tensorflow():
    """data/tf1_only.toml is what `python -m harp_ir.catalogue --tf1-names` derives from
    the installed library (run in a subprocess: it imports TensorFlow)."""
    import subprocess
    import sys
    from importlib import resources

    done = subprocess.run([sys.executable, "-m", "harp_ir.catalogue", "--tf1-names"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    stored = resources.files("harp_ir.data").joinpath("tf1_only.toml").read_text("utf-8")
    assert done.stdout == stored
    top, train = catalogue.tf1_only()
    assert {"Session", "placeholder", "global_variables_initializer"} <= top
    assert "AdamOptimizer" in train and "Session" not in train


def test_tf1_module_resolves_through_compat_v1(ctx):
    from harp_ir.analysis import string_attr, walk
    from harp_ir.frontend.lower import lower_source

    tf1 = lower_source("import tensorflow as tf\nx = tf.placeholder(tf.float32)\n"
                       "s = tf.Session()\n", "tf1.py")
    tf2 = lower_source("import tensorflow as tf\nx = tf.constant(1.0)\n", "tf2.py")
    names = [string_attr(o, "qualname") for o in walk(tf1.operation) if o.name == "host.call"]
    assert names == ["tensorflow.compat.v1.placeholder", "tensorflow.compat.v1.Session"]
    module = next(o for o in walk(tf1.operation) if o.name == "host.module")
    assert string_attr(module, "harp.tf1") == "tf.Session, tf.placeholder"
    names = [string_attr(o, "qualname") for o in walk(tf2.operation) if o.name == "host.call"]
    assert names == ["tensorflow.constant"]


@pytest.mark.parametrize("qualname", sorted(CAT.pacing_calls | CAT.blocking_calls))
def test_waiting_calls_exist_where_their_library_is_installed(qualname):
    """A loop is judged paced by these names: a misspelt one would never match."""
    pytest.importorskip(qualname.split(".")[0])
    assert callable(resolve(qualname))


def test_blocking_methods_name_keywords_of_the_method():
    """`generate(max_new_tokens=...)` is taken for Hugging Face generation by keywords only
    its generation config has."""
    transformers = pytest.importorskip("transformers")
    fields = set(transformers.GenerationConfig().to_dict()) | {"logits_processor",
                                                               "stopping_criteria",
                                                               "generation_config"}
    assert CAT.blocking_methods["generate"] <= fields


def test_container_mutators_are_methods_of_python_containers():
    """A call of one of these on an untyped object is taken to change it: each must be a
    method of list, dict, set or deque, or the effect summaries would be wrong."""
    from collections import deque
    for name in CAT.container_mutators:
        assert any(hasattr(kind, name) for kind in (list, dict, set, deque)), name


def test_mutating_methods_are_one_list_read_from_the_catalogue():
    """Every pass that asks whether a method changes a model, an optimizer or a tensor
    reads this one list: in-place tensor methods (`clamp_`, `index_add_`), an optimizer's
    `step`, a module's `load_state_dict`; never a method that only computes."""
    import torch
    changing = CAT.mutating_methods("torch.Tensor", "torch.optim.Optimizer", "torch.nn.Module")
    assert {"add_", "clamp_", "index_add_", "copy_", "step", "load_state_dict", "train",
            "backward"} <= changing
    assert not {"add", "clamp", "sum", "detach", "forward", "parameters"} & changing
    in_place = [n for n in dir(torch.Tensor) if n.endswith("_") and not n.startswith("_")]
    assert set(CAT.mutating_methods("torch.Tensor")) - {"backward", "requires_grad_"} <= \
        set(in_place)


def test_views_are_catalogued_tensor_computations():
    """HARP301 skips a view as no kernel: each listed view must be a call the catalogue
    knows returns a tensor (a misspelt or removed name would never match)."""
    assert CAT.views
    for qualname in CAT.views:
        api = CAT.lookup(qualname)
        assert api is not None and api.returns == "tensor" and api.effect == "pure", qualname


def test_a_list_naming_an_unknown_api_is_an_error():
    from harp_ir.catalogue import _catalogued

    with pytest.raises(ValueError, match="views names APIs it does not list"):
        _catalogued(CAT.apis, "views", ["torch.Tensor.veiw"])


def test_step_runner_loops_are_well_formed():
    """Each modelled loop says where its step and batches are, what the step is called with
    and what of its result the runner backpropagates, in the words `library_loops` reads."""
    assert {"torchnet.engine.Engine.train", "ignite.engine.Engine.run",
            "pytorch_lightning.Trainer.fit"} <= set(CAT.step_runners)
    for key, loops in CAT.step_runners.items():
        for loop in loops:
            assert set(loop) <= {"step", "args", "data", "backward", "no_grad"}, key
            assert set(loop["args"]) <= {"batch", "index", "runner"}, key
            assert loop.get("backward", "result") in ("result", "result 0"), key
            assert ("arg" in loop["step"]) != ("maker_arg" in loop["step"]), key
            assert "keyword" in loop["step"] and {"arg", "keyword"} <= set(loop["data"]) <= \
                {"arg", "keyword", "method"}, key


@pytest.mark.parametrize("key", sorted(CAT.step_runners))
def test_step_runners_name_the_library_signatures(key):
    """Each keyword must be a parameter of the method (or of the maker, for `maker_arg`)
    at that position, or the model would read the wrong argument (checked where the
    library is installed; torchnet's, ignite's 0.5 and Lightning's 2.4 were read by hand)."""
    import inspect

    maker, method = key.rsplit(".", 1)
    pytest.importorskip(maker.split(".")[0])
    cls = resolve(maker)
    called = [p for p in inspect.signature(getattr(cls, method)).parameters if p != "self"]
    made = [p for p in inspect.signature(cls).parameters if p != "self"]
    for loop in CAT.step_runners[key]:
        step, data = loop["step"], loop["data"]
        if "maker_arg" in step:
            assert made[step["maker_arg"]] == step["keyword"], (key, made)
        else:
            assert called[step["arg"]] == step["keyword"], (key, called)
        assert called[data["arg"]] == data["keyword"], (key, called)
