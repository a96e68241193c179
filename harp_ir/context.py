"""The one MLIR context every harp tool uses."""

from torch_mlir import ir
from torch_mlir.dialects import torch as torch_dialect

from harp_ir.dialects import host


def make_context() -> ir.Context:
    """A context with the torch dialect registered, host/hostcf loaded, and unregistered
    dialects allowed (TensorFlow's `tf` ops are parsed as unregistered ops)."""
    context = ir.Context()
    torch_dialect.register_dialect(context)
    context.allow_unregistered_dialects = True
    host.register(context)
    return context
