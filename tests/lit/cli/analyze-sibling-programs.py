# Two programs side by side in one folder, each a script beside the modules it imports by
# their bare names (`import agent`): Python runs `continuous/main.py` with its own folder
# first on the module path, so each `agent` is the file beside the script.
# RUN: %expect-exit 1 %harp analyze %S/Inputs/sibling_programs > %t.out
# RUN: FileCheck %s < %t.out
# CHECK: continuous{{/|\\}}agent.py:16:9: HARP405 per-parameter-loop: {{.*}} on every iteration of the `for t` loop (line 8) in main.py through `Agent.train`
# CHECK-NOT: discrete{{/|\\}}agent.py
# A test script importing its own package's name (`from ddpg import DDPGAgent` in
# ddpg/ddpg_test.py, beside ddpg/ddpg.py) gets the module beside it.
# RUN: FileCheck %s --check-prefix=OWN < %t.out
# OWN: ddpg{{/|\\}}ddpg.py:16:9: HARP405 per-parameter-loop: {{.*}} on every iteration of the `for t` loop (line 7) in ddpg_test.py through `DDPGAgent.update`
