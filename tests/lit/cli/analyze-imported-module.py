# A module the given files import from their folder is part of the program: noisy layers
# defined in common/layers.py, reset on every training step by train.py, get their hint
# when common/ is given too (directories and files given from one folder in one run), and
# none is reported in a file that was not given.
# RUN: cd %S/Inputs/noisy_program && %expect-exit 1 %harp analyze train.py common > %t.both
# RUN: FileCheck %s --check-prefix=BOTH < %t.both
# BOTH: common/layers.py:42:9: HARP205 host-random-to-device: `torch.randn` draws random numbers on the host and `self.weight_epsilon.copy_(...)` copies them to the device on the iterations of the `for frame_idx` loop (line 49) where `frame_idx > 100` holds in train.py through `NoisyLinear.reset_noise`, `NoisyDQN.reset_noise`, `compute_td_loss`
# BOTH-NOT: common/layers.py:43:9
# RUN: cd %S/Inputs/noisy_program && %expect-exit 1 %harp analyze --level aggressive train.py > %t.alone
# RUN: FileCheck %s --check-prefix=ALONE < %t.alone
# ALONE-NOT: common/layers.py
# ALONE: train.py:53:23: HARP201
