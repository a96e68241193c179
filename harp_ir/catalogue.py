"""The catalogue of library APIs harp knows: one data file, `data/api_catalogue.toml`.

Passes never hard-code library names; they ask the catalogue what a call does (its effect)
and what it returns (its kind). An API missing from the catalogue has effect "unknown".
"""

from __future__ import annotations

import sys
import tomllib
from dataclasses import dataclass, field
from functools import cache, cached_property
from importlib import resources

from harp_ir.dialects.host import EFFECTS, KINDS


@dataclass(frozen=True)
class Api:
    qualname: str
    effect: str
    returns: str  # a value kind (dialects.host.KINDS)
    doc: str = ""
    defined_at: str = ""  # where the object really lives, when not at `qualname`


@dataclass(frozen=True)
class GraphOp:
    """How a graph computation lowers to a dialect op (see `[[graph]]` in the data file)."""

    qualname: str
    framework: str  # torch or tf
    op: str  # torch.aten.relu, tf.Relu
    params: tuple[str, ...]
    results: int = 1  # `torch.max(x, 1)` gives (values, indices)


@dataclass(frozen=True)
class Catalogue:
    apis: dict[str, Api]
    #: method names that only tensors have: `x.item()` on an unknown `x` speculates a tensor
    tensor_only_methods: frozenset[str]
    #: "kind.framework" -> the class whose methods a value of that kind has
    kind_class: dict[str, str]
    #: calls whose result is new memory (writing into it changes nothing else)
    fresh_allocations: frozenset[str] = frozenset()
    #: calls whose result is a view of their tensor: no kernel, no copy
    views: frozenset[str] = frozenset()
    #: autograd: tensor methods and attributes whose result carries no gradient, and calls
    #: that make a host value of anything (harp_ir/autograd.py)
    detached_methods: frozenset[str] = frozenset()
    detached_attributes: frozenset[str] = frozenset()
    host_results: frozenset[str] = frozenset()
    #: methods of Python's containers that change their receiver (`xs.append(v)`)
    container_mutators: frozenset[str] = frozenset()
    #: calls whose result runs the module passed first (`nn.DataParallel(model)`)
    module_wrappers: frozenset[str] = frozenset()
    #: calls that return the tensor they are given (`Variable(t)`)
    tensor_wrappers: frozenset[str] = frozenset()
    #: modules whose constructors build deep image networks (`keras.applications`)
    image_networks: frozenset[str] = frozenset()
    #: library layers that hold weights and run a matrix product or a convolution
    weighted_layers: frozenset[str] = frozenset()
    #: calls that make a loop wait on purpose (a plot's pause, a sleep, a prompt): a loop
    #: that makes one every iteration is paced by it, not by its computation
    pacing_calls: frozenset[str] = frozenset()
    thread_starters: frozenset[str] = frozenset()
    pacing_methods: frozenset[str] = frozenset()
    #: calls that block the host for a round trip far longer than a device sync (`rpc_sync`)
    blocking_calls: frozenset[str] = frozenset()
    #: method name -> keywords only the blocking method of that name takes (HF `generate`)
    blocking_methods: dict[str, frozenset[str]] = field(default_factory=dict)
    #: qualified name -> the dialect ops it lowers to, one per overload, tried in order
    graph_ops: dict[str, tuple[GraphOp, ...]] = field(default_factory=dict)
    #: "maker.method" of a library runner -> the role ("train", "evaluate", "") of each
    #: positional argument (`args`) and keyword it iterates as a data loader
    loader_runners: dict[str, dict] = field(default_factory=dict)
    #: "maker.method" of a library runner -> the loops it runs a function of the program
    #: in, once per batch (see `[harp.step_runners]`)
    step_runners: dict[str, list] = field(default_factory=dict)

    def loader_role(self, maker: str, method: str, position: int, keyword: str
                    ) -> str | None:
        """The role in which `method` of an object the call `maker` made (a qualified
        name) runs the loader it is given at `position` (or as `keyword`); None when the
        runner is not known. A maker is matched by its package and its own name, so a
        re-export (`poutyne.Model` of `poutyne.framework.model.Model`) is the same one."""
        roles = self._runners.get(_runner_key(f"{maker}.{method}"))
        if roles is None:
            return None
        if keyword:
            return roles.get(keyword, "")
        args = roles.get("args", [])
        return args[position] if position < len(args) else ""

    def step_loops(self, maker: str, method: str) -> list[dict]:
        """The loops in which `method` of an object the call `maker` made runs functions
        of the program once per batch (matched as `loader_role` matches); [] when none."""
        return self._steps.get(_runner_key(f"{maker}.{method}"), [])

    @cached_property
    def _steps(self) -> dict[tuple[str, str, str], list]:
        """`step_runners` keyed by (package, maker's name, method)."""
        return self._keyed(self.step_runners)

    @cached_property
    def _runners(self) -> dict[tuple[str, str, str], dict]:
        """`loader_runners` keyed by (package, maker's name, method)."""
        return self._keyed(self.loader_runners)

    @staticmethod
    def _keyed(table: dict) -> dict:
        return {_runner_key(key): value for key, value in table.items()}

    def lookup(self, qualname: str | None) -> Api | None:
        """The API `qualname` names; standalone Keras (`keras.models.Sequential`) is the
        Keras that `tensorflow.keras` re-exports, so it resolves to the same entry."""
        if not qualname:
            return None
        api = self.apis.get(qualname)
        if api is None and qualname.startswith("keras."):
            api = self.apis.get("tensorflow." + qualname)
        return api

    def image_network(self, qualname: str) -> bool:
        """Whether `qualname` constructs a deep image network (a ResNet, a MobileNet)."""
        api = self.lookup(qualname)
        return api is not None and api.returns == "module" and any(
            api.qualname.startswith(m + ".") for m in self.image_networks)

    def mutating_methods(self, *classes: str) -> frozenset[str]:
        """The names of the methods of `classes` (`torch.Tensor`, `torch.nn.Module`)
        catalogued as changing their receiver or what it holds: the one list every pass
        asks whether a method call changes an object."""
        return frozenset(api.qualname.rsplit(".", 1)[1] for api in self.apis.values()
                         if api.effect == "mutate" and api.qualname.rsplit(".", 1)[0] in classes)

    def method(self, framework: str, name: str, kind: str = "tensor") -> Api | None:
        """The API of `v.name(...)` for a value `v` of `kind` from `framework`."""
        cls = self.kind_class.get(f"{kind}.{framework}")
        return self.apis.get(f"{cls}.{name}") if cls else None


def _flatten(table: dict, prefix: str, out: dict[str, Api]) -> None:
    for key, value in table.items():
        if not isinstance(value, dict):
            continue
        name = f"{prefix}.{key}" if prefix else key
        if "effect" in value:
            if name in out:
                raise ValueError(f"api_catalogue.toml: {name} is listed twice")
            effect, returns = value["effect"], value.get("returns", "unknown")
            if effect not in EFFECTS or returns not in KINDS:
                raise ValueError(f"api_catalogue.toml: bad entry {name}: {value}")
            out[name] = Api(name, effect, returns, value.get("doc", ""),
                            value.get("defined_at", name))
        else:
            _flatten(value, name, out)


def _catalogued(apis: dict[str, Api], key: str, names) -> frozenset[str]:
    """`names`, each checked to be a catalogued API (a list that names an unknown call
    would never match)."""
    unknown = sorted(set(names) - apis.keys())
    if unknown:
        raise ValueError(f"api_catalogue.toml: {key} names APIs it does not list: {unknown}")
    return frozenset(names)


@cache
def load() -> Catalogue:
    data = tomllib.loads(
        resources.files("harp_ir.data").joinpath("api_catalogue.toml").read_text("utf-8"))
    meta = data.pop("harp", {})
    groups = data.pop("group", [])
    graph_tables = data.pop("graph", [])
    apis: dict[str, Api] = {}
    _flatten(data, "", apis)
    for group in groups:  # many APIs of one module with the same effect and result kind
        for name in group["names"]:
            entry = {"effect": group["effect"], "returns": group.get("returns", "unknown")}
            _flatten({name: entry}, group["module"], apis)
    graph_ops: dict[str, tuple[GraphOp, ...]] = {}
    for table in graph_tables:
        for qualname, op in table["ops"].items():
            spec = GraphOp(qualname, table["framework"], op, tuple(table["params"]),
                           table.get("results", 1))
            if qualname not in apis or spec in graph_ops.get(qualname, ()):
                raise ValueError(f"api_catalogue.toml: graph op for {qualname}: listed twice "
                                 f"or not a catalogued API")
            graph_ops[qualname] = (*graph_ops.get(qualname, ()), spec)
    return Catalogue(
        apis=apis,
        tensor_only_methods=frozenset(meta.get("tensor_only_methods", ())),
        detached_methods=frozenset(meta.get("detached_methods", ())),
        detached_attributes=frozenset(meta.get("detached_attributes", ())),
        host_results=frozenset(meta.get("host_results", ())),
        kind_class=dict(meta.get("kind_class", {})),
        fresh_allocations=frozenset(meta.get("fresh_allocations", ())),
        views=_catalogued(apis, "views", meta.get("views", ())),
        container_mutators=frozenset(meta.get("container_mutators", ())),
        module_wrappers=frozenset(meta.get("module_wrappers", ())),
        tensor_wrappers=frozenset(meta.get("tensor_wrappers", ())),
        pacing_calls=frozenset(meta.get("pacing_calls", ())),
        thread_starters=frozenset(meta.get("thread_starters", ())),
        pacing_methods=frozenset(meta.get("pacing_methods", ())),
        blocking_calls=frozenset(meta.get("blocking_calls", ())),
        image_networks=frozenset(meta.get("image_networks", ())),
        weighted_layers=frozenset(meta.get("weighted_layers", ())),
        blocking_methods={m: frozenset(k) for m, k in meta.get("blocking_methods", {}).items()},
        graph_ops=graph_ops,
        loader_runners=dict(meta.get("loader_runners", {})),
        step_runners=dict(meta.get("step_runners", {})),
    )


def _runner_key(key: str) -> tuple[str, str, str]:
    """"pkg.sub.Maker.method" as (package, maker's own name, method): a maker re-exported
    elsewhere in its package (`poutyne.Model`) is the same one."""
    maker, method = key.rsplit(".", 1)
    return maker.split(".")[0], maker.rsplit(".", 1)[-1], method


@cache
def tf1_only() -> tuple[frozenset[str], frozenset[str]]:
    """(names, train names) that only `tensorflow.compat.v1` has (data/tf1_only.toml)."""
    data = tomllib.loads(
        resources.files("harp_ir.data").joinpath("tf1_only.toml").read_text("utf-8"))
    return frozenset(data["top"]), frozenset(data["train"])


def tf1_only_from_library() -> tuple[list[str], list[str]]:
    """The same lists, computed from the installed TensorFlow (imports it: call it in a
    process that has imported harp_ir's MLIR bindings first, or in a subprocess)."""
    import tensorflow as tf  # noqa: PLC0415

    def public(module) -> set[str]:
        return {n for n in dir(module) if not n.startswith("_")}

    return (sorted(public(tf.compat.v1) - public(tf)),
            sorted(public(tf.compat.v1.train) - public(tf.train)))


def _toml_list(names: list[str]) -> str:
    lines, line = [], "    "
    for name in names:
        item = f'"{name}", '
        if len(line) + len(item) > 96:
            lines.append(line.rstrip())
            line = "    "
        line += item
    lines.append(line.rstrip())
    return "[\n" + "\n".join(lines) + "\n]"


def main(argv: list[str] | None = None) -> int:
    """`python -m harp_ir.catalogue --tf1-names`: print data/tf1_only.toml anew."""
    import tensorflow as tf  # noqa: PLC0415  (harp_ir loaded the MLIR bindings first)

    if (argv if argv is not None else sys.argv[1:]) != ["--tf1-names"]:
        print("usage: python -m harp_ir.catalogue --tf1-names", file=sys.stderr)
        return 2
    top, train = tf1_only_from_library()
    sys.stdout.write(
        "# Names that exist in `tensorflow.compat.v1` but not in TensorFlow 2's `tensorflow` "
        "(nor its\n# `train` module), from the installed tensorflow-cpu "
        f"{tf.__version__}: a module that reaches them\n# through `import tensorflow as tf` "
        "is TF1 code (`tf.Session`, `tf.placeholder`,\n# `tf.train.AdamOptimizer`), and harp "
        "resolves its `tf.*` through `compat.v1`.\n# Regenerate with `python -m "
        "harp_ir.catalogue --tf1-names`; a test checks it against the\n# installed library."
        f"\n\ntop = {_toml_list(top)}\n\ntrain = {_toml_list(train)}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
