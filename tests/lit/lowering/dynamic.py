# RUN: %harp import %s --no-debuginfo | FileCheck %s
# Dynamic features that can defeat the analysis are recorded on the module.

import importlib
import torch

eval("1 + 1")
setattr(obj, name, 1)
setattr(obj, "fixed", 1)
torch.randn = lambda *a: None
globals()["k"] = 1
plugin = importlib.import_module("plugin")
# An option set to a constant configures the library; it replaces nothing.
torch.backends.cudnn.benchmark = True
# CHECK: harp.dynamic = [{detail = "eval", feature = "eval", line = 7 : i64}, {detail = "setattr(obj, name, 1)", feature = "setattr with a non-constant name", line = 8 : i64}, {detail = "torch.randn", feature = "monkey-patch", line = 10 : i64}, {detail = "globals()[\22k\22]", feature = "write to globals()", line = 11 : i64}, {detail = "importlib.import_module", feature = "importlib", line = 12 : i64}]
