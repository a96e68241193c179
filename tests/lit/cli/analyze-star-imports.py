# `from module import *` of a file of the program binds what that module exports (its
# `__all__` when it lists constants, else its public names), through chains of packages
# that re-export each other (`from .agents import *` in pkg/__init__.py, `from .utils
# import *` in agents.py); an import cycle binds what is bound so far. So `torch` and
# `nn` reach agents.py, `run_steps(Agent())` in main.py reaches the agent's step, and the
# soft update it runs per step gets its hint. The device is chosen in utils.py, which
# agents.py imports: the accelerator speculation is medium risk, not high.
# RUN: cd %S/Inputs/star_program && %expect-exit 1 %harp analyze --output-format full main.py pkg > %t
# RUN: FileCheck %s < %t
# CHECK: pkg/agents.py:21:9: HARP405 per-parameter-loop: the `for tp, p` loop (line 21) runs 5 tensor operations on each parameter of `target` and `src`, one parameter at a time, on every iteration of the `while` loop (line 10) in utils.py through `Agent.soft_update`, `Agent.step`
# CHECK: = assumes: accelerator (speculated, medium risk: device.py, which this file imports (directly or through others), places tensors on an accelerator (.to(device)))
# CHECK-NOT: : HARP
# `not_exported` is not in utils.py's `__all__`: a name star imports do not bind.
# RUN: %harp import --no-debuginfo %S/Inputs/star_program/pkg/agents.py | FileCheck %s --check-prefix=ALONE

# ALONE: reason = "from utils import *"
