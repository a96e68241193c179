"""The hint catalogue: one table, from which `harp --list-hints`, `harp explain` and the
README's table are generated. Ids are stable and never reused."""

from __future__ import annotations

from dataclasses import dataclass

DOCS = "https://github.com/harp-ir/harp/blob/main/README.md"


@dataclass(frozen=True)
class HintSpec:
    id: str
    name: str
    finds: str
    refactoring: str
    pass_flag: str
    fix: str  # "none", "safe" or "unsafe": whether `harp refactor` can apply it
    before: str = ""
    after: str = ""

    @property
    def anchor(self) -> str:
        return f"{DOCS}#{self.id.lower()}-{self.name}"


HINTS: tuple[HintSpec, ...] = (
    HintSpec(
        "HARP201", "host-sync-in-loop",
        "a tensor converted to a host value inside a loop (`.item()`, `.numpy()`, `.cpu()`, "
        "`.tolist()`, `float(t)`/`int(t)`/`bool(t)`, a tensor as an `if`/`while` "
        "condition): every iteration waits for the device",
        "keep the value on the device (accumulate with tensor ops) and sync once after "
        "the loop",
        "harp-host-sync-in-loop", "none",
        before="for x, y in loader:\n    loss = step(x, y)\n    total += loss.item()\n",
        after="total = torch.zeros(())\nfor x, y in loader:\n    loss = step(x, y)\n"
              "    total += loss.detach()\ntotal = total.item()\n"),
)

BY_ID: dict[str, HintSpec] = {h.id: h for h in HINTS}


def markdown_table() -> str:
    rows = ["| id | name | finds | refactoring | pass |", "| --- | --- | --- | --- | --- |"]
    rows += [f"| {h.id} | {h.name} | {h.finds} | {h.refactoring} | `--{h.pass_flag}` |"
             for h in HINTS]
    return "\n".join(rows)
