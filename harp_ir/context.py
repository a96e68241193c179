"""The one MLIR context every harp tool uses."""

import sys

from torch_mlir import ir
from torch_mlir.dialects import torch as torch_dialect
from torch_mlir.dialects._ods_common import _cext

from harp_ir.dialects import host

# The bindings import the Python module of every dialect they create an op of, and retry on
# every op when none is found; harp's dialect modules live in harp_ir.dialects.
_cext.globals.append_dialect_search_prefix("harp_ir.dialects")

#: libcst's code generation and harp's lowering recurse once or twice per level of
#: nesting: Python's default limit (1000) stops them at a 300-call method chain or 200
#: implicitly joined strings, valid code. Deeper than Python's own parser accepts
#: (about 3000 levels), a file is refused before libcst sees it (frontend `_parse`).
RECURSION_LIMIT = 20_000


def make_context() -> ir.Context:
    """A context with the torch dialect registered, host/hostcf loaded, and unregistered
    dialects allowed (TensorFlow's `tf` ops are parsed as unregistered ops)."""
    sys.setrecursionlimit(max(sys.getrecursionlimit(), RECURSION_LIMIT))
    context = ir.Context()
    torch_dialect.register_dialect(context)
    context.allow_unregistered_dialects = True
    host.register(context)
    return context
