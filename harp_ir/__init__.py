"""harp: holistic analysis and refactoring of the Python host code of ML programs, on MLIR.

Import-order rule: the MLIR bindings are imported here, first, before anything can import
TensorFlow; importing TensorFlow before `torch_mlir.ir` aborts the process (duplicate LLVM
command-line options).
"""

from torch_mlir import ir as _ir  # noqa: F401  (must come before any tensorflow import)

__version__ = "0.1.0"
