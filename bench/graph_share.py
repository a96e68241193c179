"""The graph half's reach: of the tensor computations in the ecosystem corpus (calls of
resolved torch/tf APIs and operators on tensors that the frontend marks pure; not
identities such as `Variable(t)`, nor calls of models), the share that
`--harp-lower-graph` turns into torch or tf dialect ops, and the calls left on the host
most often. Uses the corpus checkouts `bench/ecosystem.py` prepares.

    python bench/graph_share.py [--only NAME...] [--top N]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter

import ecosystem

from harp_ir.analysis import string_attr, walk
from harp_ir.context import make_context
from harp_ir.frontend.lower import lower_source
from harp_ir.frontend.source import FrontendError, read_source
from harp_ir.pipeline import build
from harp_ir.report import python_files

#: calls that return their argument: nothing to compute
IDENTITIES = frozenset({"torch.autograd.Variable"})


def tensor_computations(module) -> Counter:
    """What each candidate is (a qualname, or `operator.add`), counted, still on the host."""
    found: Counter = Counter()
    for op in walk(module.operation):
        if string_attr(op, "harp.kind") != "tensor" or \
                string_attr(op, "harp.framework") not in ("torch", "tf"):
            continue
        qualname = string_attr(op, "qualname")
        if op.name == "host.call" and string_attr(op, "effect") == "pure" and qualname and \
                qualname not in IDENTITIES:
            found[qualname] += 1
        elif op.name in ("host.binop", "host.unop") and "inplace" not in op.attributes:
            found[f"operator.{string_attr(op, 'op')}"] += 1
    return found


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--only", nargs="*", default=[], metavar="NAME")
    p.add_argument("--top", type=int, default=15)
    args = p.parse_args(argv)
    before: Counter = Counter()
    after: Counter = Counter()
    with make_context():
        for source in ecosystem.load_corpus():
            if args.only and source.name not in args.only:
                continue
            if source.kind == "package":
                ecosystem.prepare_package(source, ecosystem.CACHE)
            else:
                ecosystem.prepare_repo(source, ecosystem.CACHE / "repos", ecosystem.MIRRORS)
            if source.skipped:
                continue
            files = python_files([str(source.root / q) for q in source.paths],
                                 tuple(source.exclude))[0]
            for path in files:
                try:
                    module = lower_source(read_source(path), str(path))
                except (FrontendError, OSError):
                    continue
                before += tensor_computations(module)
                build(["harp-lower-graph"], verify_each=False).run(module.operation)
                after += tensor_computations(module)
    total, left = sum(before.values()), sum(after.values())
    share = (total - left) / total if total else 0.0
    print(f"tensor computations: {total}; lowered to graph ops: {total - left} ({share:.0%})")
    print(f"left on the host most often (of {left}):")
    for name, n in after.most_common(args.top):
        print(f"  {n:6d}  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
