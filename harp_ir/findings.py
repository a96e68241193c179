"""What an analysis finds, as plain data: a source span, the assumptions a hint rests on
(and their one vocabulary), and a hint. Kept apart from the analyses so that reading
results (the result cache, the output formats) needs neither libcst nor the passes."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from torch_mlir import ir

from harp_ir.rules import explain_command


@dataclass(frozen=True)
class Span:
    file: str
    line: int
    col: int
    end_line: int
    end_col: int
    cell: int | None = None  # a notebook's cell (1-based); then the lines are the cell's

    def __str__(self) -> str:
        where = f"cell {self.cell}:" if self.cell is not None else ""
        return f"{self.file}:{where}{self.line}:{self.col}"


#: The one vocabulary of assumptions hints rest on (`--assume`/`--deny` take these kinds).
ASSUMPTIONS: dict[str, str] = {
    "tensor": "a value is a tensor",
    "library": "a name resolves to the library",
    "not-patched": "the library is not monkey-patched or shadowed at run time",
    "pure": "a function has no side effects",
    "no-alias": "an object is not changed through another name in the loop",
    "loop-runs": "the loop runs at least once",
    "hot-loop": "the loop runs many times (it is not an outer, once-per-epoch loop)",
    "accelerator": "the benefit needs an accelerator",
    "same-graph": "TF ops are built into the same default graph every iteration",
    "traceable": "a step has no Python side effects that must run eagerly",
    "independent-runs": "a Session.run does not need the updates of an earlier one",
    "independent-iterations": "no loop iteration depends on an earlier one",
    "independent-examples": "a model treats the examples of a batch independently",
    "no-partial-use": "a partial result is not needed inside the loop",
    "no-backward": "no backward pass runs through the computation",
    "grad-unread": "zeroed gradients are not read before the next backward",
    "framework-equivalent": "a host computation has a framework-op equivalent",
    "tensor-argument": "a tf.function computes the same with a tensor for a Python number",
    "picklable-dataset": "a dataset can be sent to worker processes",
    "every-iteration": "a statement in a loop runs on (nearly) every iteration",
    "logging-cost": "a sync that only feeds a print or a logger is worth removing",
    "accumulated-only": "the loop only accumulates a synced value, never uses it on the host",
    "loading-cost": "loading and copying batches is a noticeable part of a training step",
    "random-stream": "a program does not rely on the exact random numbers it draws",
    "history-unread": "a tensor's autograd history (`grad_fn`, shown when printed) is not read",
    "broadcast": "an operand broadcasts against the whole tensor as against one element",
    "keras-model": "a receiver of `predict` or `fit` is a Keras model",
    "one-batch": "an input is small enough to run as one batch",
    "tf1-api": "a module that uses TensorFlow-1-only names is TF1 code (`tf` is compat.v1)",
    "step-share": "what the fix removes is a noticeable share of a step, worth a change",
    "device-argument": "the argument of `.to(...)` names a device (not a dtype or a tensor)",
    "weights-unused": "a module's weight gradients are used by nothing: no optimizer, no "
                      "reader, no code harp cannot see",
    "inputs-gradient-free": "a forward's inputs carry no gradient towards a trained parameter",
    "only-wait": "a sync is the loop's only wait for the device in an iteration (no blocking "
                 "copy of a host tensor to the device beside it)",
}
RISKS = ("low", "medium", "high")
STATUSES = ("proved", "speculated", "confirmed", "denied")


@dataclass(frozen=True)
class Assumption:
    """One thing a hint relies on, from the ASSUMPTIONS vocabulary."""

    kind: str
    subject: str
    risk: str  # low, medium, high
    status: str  # proved, speculated, confirmed, denied
    reason: str = ""

    def __post_init__(self):
        if self.kind not in ASSUMPTIONS or self.risk not in RISKS or \
                self.status not in STATUSES:
            raise ValueError(f"bad assumption {self}: see harp_ir.findings.ASSUMPTIONS")

    def describe(self) -> str:
        """"tensor `loss` (speculated, medium risk: calling ... returns a tensor)"."""
        subject = self.subject if "`" in self.subject else f"`{self.subject}`"
        subject = f" {subject}" if self.subject else ""
        why = f": {self.reason}" if self.reason else ""
        return f"{self.kind}{subject} ({self.status}, {self.risk} risk{why})"

    def to_attr(self) -> ir.Attribute:
        return ir.DictAttr.get({k: ir.StringAttr.get(v) for k, v in vars(self).items()})

    @staticmethod
    def from_attr(attr: ir.Attribute) -> Assumption:
        d = ir.DictAttr(attr)
        return Assumption(*(ir.StringAttr(d[k]).value for k in
                            ("kind", "subject", "risk", "status", "reason")))


@dataclass(frozen=True)
class Hint:
    id: str
    name: str
    span: Span
    message: str
    refactoring: str
    fix: str
    assumptions: list[Assumption] = field(default_factory=list)
    #: the other statements its fix moves with it, in order (a chain of invariant ones)
    moves: tuple[Span, ...] = ()
    #: other places its message names, in any file (the call in the loop that runs it)
    related: tuple[Span, ...] = ()
    #: the fix once the user confirms the assumptions `fix_rests_on` ("" when the same)
    fix_if_confirmed: str = ""
    #: the assumption kinds the fix's safety depends on (what `--assume` can settle)
    fix_rests_on: tuple[str, ...] = ()
    #: what a `harp measure` profile counted at the hint's line ("" without a profile)
    measured: str = ""

    def text(self) -> str:
        return f"{self.span}: {self.id} {self.name}: {self.message}"

    def to_json(self) -> dict:
        d = asdict(self)
        d["span"] = asdict(self.span)
        d["doc"] = explain_command(self.id)  # as HintSpec.doc, without the catalogue
        return d

    @staticmethod
    def from_json(d: dict) -> Hint:
        """The hint `to_json` wrote (the result cache keeps hints so)."""
        return Hint(d["id"], d["name"], Span(**d["span"]), d["message"], d["refactoring"],
                    d["fix"], [Assumption(**a) for a in d["assumptions"]],
                    tuple(Span(**m) for m in d["moves"]),
                    tuple(Span(**r) for r in d["related"]), d.get("fix_if_confirmed", ""),
                    tuple(d.get("fix_rests_on", ())), d.get("measured", ""))
