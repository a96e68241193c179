"""Pass pipelines that mix upstream MLIR passes and harp's Python passes.

MLIR's textual pipeline parser only knows passes registered in C++, so a pipeline such as
`builtin.module(canonicalize,harp-host-sync-in-loop,cse)` is split at the top level: runs
of upstream elements are added as text, harp elements as Python passes.
"""

from __future__ import annotations

from torch_mlir import ir, passmanager

from harp_ir import analysis
from harp_ir.passes import hint_rules, load, passes, rules


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


def _pass_name(element: str) -> str:
    """The pass a pipeline element names, without its options or nested passes."""
    return element.split("{", 1)[0].split("(", 1)[0].strip()


def _sharing_facts(run):
    """A hint pass (it only adds attributes) run with walks and the analyses' facts
    memoised while it runs, when its driver has not opened such a run already (`harp-opt`,
    MLIR's own pass manager): without it, every query of a pass re-walks the module."""
    def run_sharing_facts(op, pass_):
        if analysis.walks_cached():
            return run(op, pass_)
        with analysis.cached_walks():
            return run(op, pass_)
    return run_sharing_facts


def _reporting_attribute_kinds(run):
    """A harp pass that reports an attribute of the wrong kind (AttributeKindError) as an
    error at its op and fails, as a verifier would, instead of raising out of the pass
    manager."""
    def run_reporting(op, pass_):
        try:
            return run(op, pass_)
        except analysis.AttributeKindError as e:
            e.op.location.emit_error(str(e))
            pass_.signal_pass_failure()
    return run_reporting


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
        name = _pass_name(element)
        if name in known:
            if element.strip() != name:
                raise PipelineError(f"'{name}' takes no options or nested passes, got "
                                    f"'{element.strip()}'")
            flush()
            run = _sharing_facts(load(name)) if rules()[name].hint is not None else load(name)
            run = _reporting_attribute_kinds(run)
            pm.add(run, name=name, argument=name, description=known[name])
        else:
            upstream.append(element)
    flush()
    return pm


def run(elements: list[str], module: ir.Operation, verify_each: bool = True) -> None:
    """Run `elements` on `module` as harp-opt does. Consecutive hint passes (they only add
    attributes) share walks and facts from the first to the last, as `harp analyze` does,
    and the module is verified once after them, not after each: MLIR's pass manager skips
    the verifier after a pass that preserves all analyses, which the Python pass API
    cannot declare. Any other pass (an upstream transform, the graph lowering) may add or
    remove ops and is verified after it runs, as MLIR does."""
    hint_flags = {rule.flag for rule in hint_rules()}
    for segment, annotates in _segments(elements, hint_flags):
        if not annotates:
            build(segment, verify_each).run(module)
        elif analysis.walks_cached():
            build(segment, verify_each=False).run(module)
        else:
            with analysis.cached_walks():
                build(segment, verify_each=False).run(module)
        if annotates and verify_each:
            module.verify()


def _segments(elements: list[str], hint_flags: set[str]) -> list[tuple[list[str], bool]]:
    """`elements` cut into runs of hint passes (True) and runs of anything else (False)."""
    segments: list[tuple[list[str], bool]] = []
    for element in elements:
        annotates = _pass_name(element) in hint_flags
        if segments and segments[-1][1] == annotates:
            segments[-1][0].append(element)
        else:
            segments.append(([element], annotates))
    return segments
