# The episode loop is a base class's method in one file, the step it calls is inherited,
# and the update is the subclass's override in another file: the hint is at the update and
# names the loop in the base class's file and the chain through the inherited methods.
# RUN: %expect-exit 1 %harp analyze %S/Inputs/base_class_program > %t.out
# RUN: FileCheck %s < %t.out
# CHECK: ddpg.py:27:9: HARP405 per-parameter-loop: the `for target, local` loop (line 27) runs 4 tensor operations on each parameter of `self.critic_target` and `self.critic`, one parameter at a time, on every iteration of the `while` loop (line 10) in base_agent.py through `DDPG.learn`, `BaseAgent.step`
