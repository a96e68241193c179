# A folder a script adds to `sys.path` by a constant (`sys.path.insert(0, "models")`,
# `sys.path.append("game/")`) is where its imports resolve, as Python resolves them: the
# policy imported from `models/nets.py` is a model, so its forward in a loop that never
# trains is reported; the game imported from `game/` caps its frame rate with pygame's
# clock on every step, so a per-step Keras `predict` there is lost in the wait (the
# aggressive level only).
# RUN: %expect-exit 1 %harp analyze %S/Inputs/sys_path_program > %t.out
# RUN: FileCheck %s < %t.out
# CHECK-NOT: qlearn.py
# CHECK: play.py:11:1: HARP303 missing-no-grad
# CHECK-NOT: qlearn.py
# RUN: %expect-exit 1 %harp analyze --level aggressive %S/Inputs/sys_path_program > %t.agg
# RUN: FileCheck %s --check-prefix=AGG < %t.agg
# AGG: qlearn.py:15:9: HARP404 keras-call-in-loop
