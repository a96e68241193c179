# A TF1 program's optimizer module builds each variable's update in a loop over the
# variables; `1. - mom2` is the same in every iteration. The module names no TF1-only API,
# but the program it runs in makes and runs a Session: the loop builds graph nodes once
# (no session runs in it), so hoisting would not change what a training step computes
# (blind readers judged such a hint in Glow's optimizer FALSE). Alone, the module could be
# eager TensorFlow 2, where the loop computes: the hint stays.
# RUN: %harp analyze --level aggressive %S/Inputs/tf1_optimizer_program > %t.out
# RUN: FileCheck %s --check-prefix=PROGRAM --allow-empty < %t.out
# PROGRAM-NOT: HARP301
# RUN: %expect-exit 1 %harp analyze --level aggressive %S/Inputs/tf1_optimizer_program/optim.py > %t.alone
# RUN: FileCheck %s --check-prefix=ALONE < %t.alone
# ALONE: optim.py:15:29: HARP301 loop-invariant-graph-computation: `(...) - mom2` computes the same tensor on every iteration of the `for p, g` loop (line 11)
