# A network class that keeps its own optimizer (`self.optimizer = optim.RMSprop(
# self.parameters())`), in another file: the online network's is stepped
# (`self.q_eval.optimizer.step()`), the target network's never is, so backward through the
# target's forward computes gradients nothing uses. A class that steps its own optimizer
# in a method of its own may train any instance: no hint for its target.
# RUN: %expect-exit 1 %harp analyze %S/Inputs/own_optimizer_program > %t.out
# RUN: FileCheck %s < %t.out
# CHECK: agent.py:19:18: HARP303 missing-no-grad: `q_next.forward(...)` runs with autograd recording on every iteration of the `while` loop (line 6) in main.py through `Agent.learn`, but the optimizer its class keeps (`self.optimizer`) is never used for it
# CHECK-NOT: agent.py:18:
# CHECK-NOT: agent.py:23:
