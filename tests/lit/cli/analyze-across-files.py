# A method of a class in one file, called on every step of a loop in another: the hint is
# at the forward, and names the loop, its file and the call chain.
# RUN: %expect-exit 1 %harp analyze %S/Inputs/agent_program > %t.out
# RUN: FileCheck %s --check-prefix=DEFAULT < %t.out
# DEFAULT-NOT: agent.py:22
# DEFAULT: agent.py:26:18: HARP303 missing-no-grad: `self.target(...)` runs with autograd recording on every iteration of the `while` loop (line 9) in main.py through `Agent.learn`, but no optimizer holds its parameters (the program sets them with `load_state_dict(...)`)
# RUN: %expect-exit 1 %harp analyze --level aggressive %S/Inputs/agent_program > %t.agg
# RUN: FileCheck %s --check-prefix=AGGRESSIVE < %t.agg
# AGGRESSIVE: agent.py:22:15: HARP303 missing-no-grad: `self.local(...)` runs the model's forward with autograd recording on every iteration of the `while` loop (line 9) in main.py through `Agent.act`, but what it computes never reaches backward() (it ends in `.argmax()`)
# Files given side by side from one folder are one program too.
# RUN: %expect-exit 1 %harp analyze %S/Inputs/agent_program/main.py %S/Inputs/agent_program/agent.py > %t.files
# RUN: FileCheck %s --check-prefix=DEFAULT < %t.files
