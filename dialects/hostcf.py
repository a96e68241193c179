"""The `hostcf` dialect: the terminators of host regions.

Its ops are specified with the rest of the dialect in `host.py` (see there why they live
in a namespace of their own). This module exists so that the MLIR Python bindings, which
look up `harp_ir.dialects.<namespace>` for every dialect they meet, find it once.
"""
