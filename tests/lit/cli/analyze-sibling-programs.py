# Two programs side by side in one folder, each a script beside the modules it imports by
# their bare names (`import agent`): Python runs `continuous/main.py` with its own folder
# first on the module path, so each `agent` is the file beside the script.
# RUN: %expect-exit 1 %harp analyze %S/Inputs/sibling_programs > %t.out
# RUN: FileCheck %s < %t.out
# CHECK: continuous{{/|\\}}agent.py:16:9: HARP405 per-parameter-loop: {{.*}} on every iteration of the `for t` loop (line 8) in main.py through `Agent.train`
# CHECK-NOT: discrete{{/|\\}}agent.py
