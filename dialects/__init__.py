"""Dialects defined by harp (importable as `harp_ir.dialects`)."""
