"""Pass pipelines that mix upstream MLIR passes and harp's Python passes.

MLIR's textual pipeline parser only knows passes registered in C++, so a pipeline such as
`builtin.module(canonicalize,harp-host-sync-in-loop,cse)` is split at the top level: runs
of upstream elements are added as text, harp elements as Python passes.
"""

from __future__ import annotations

from torch_mlir import passmanager

from harp_ir.passes import load, passes


class PipelineError(ValueError):
    pass


def split_top_level(text: str) -> list[str]:
    """Split `a,b(c,d),e{x=1,y=2}` at commas outside brackets."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "({":
            depth += 1
        elif ch in ")}":
            depth -= 1
            if depth < 0:
                raise PipelineError(f"unbalanced ')' in pipeline '{text}'")
        elif ch == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    if depth:
        raise PipelineError(f"unbalanced '(' in pipeline '{text}'")
    tail = text[start:].strip()
    if tail:
        parts.append(tail)
    return [p for p in parts if p]


def pipeline_elements(text: str) -> list[str]:
    """The elements of `builtin.module(...)` (or of a bare comma-separated list)."""
    text = text.strip()
    if text.startswith("builtin.module(") and text.endswith(")"):
        text = text[len("builtin.module("):-1]
    return split_top_level(text)


def build(elements: list[str], verify_each: bool = True) -> passmanager.PassManager:
    """A PassManager on builtin.module running `elements` in order. Needs a current context."""
    pm = passmanager.PassManager("builtin.module")
    pm.enable_verifier(verify_each)
    upstream: list[str] = []

    def flush():
        if upstream:
            text = ",".join(upstream)
            try:
                pm.add(text)
            except ValueError as e:
                raise PipelineError(f"invalid pass pipeline '{text}': {e}") from None
            upstream.clear()

    known = passes()
    for element in elements:
        name = element.split("{", 1)[0].split("(", 1)[0].strip()
        if name in known:
            if element.strip() != name:
                raise PipelineError(f"'{name}' takes no options or nested passes, got "
                                    f"'{element.strip()}'")
            flush()
            pm.add(load(name), name=name, argument=name, description=known[name])
        else:
            upstream.append(element)
    flush()
    return pm
