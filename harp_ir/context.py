"""The one MLIR context every harp tool uses."""

from torch_mlir import ir
from torch_mlir.dialects import torch as torch_dialect
from torch_mlir.dialects._ods_common import _cext

from harp_ir.dialects import host

# The bindings import the Python module of every dialect they create an op of, and retry on
# every op when none is found; harp's dialect modules live in harp_ir.dialects.
_cext.globals.append_dialect_search_prefix("harp_ir.dialects")


def make_context() -> ir.Context:
    """A context with the torch dialect registered, host/hostcf loaded, and unregistered
    dialects allowed (TensorFlow's `tf` ops are parsed as unregistered ops)."""
    context = ir.Context()
    torch_dialect.register_dialect(context)
    context.allow_unregistered_dialects = True
    host.register(context)
    return context
