# A name two star imports bind to the same definition (`from helpers import *`, then
# `from generate import *`, which re-exports helpers' names) is that definition: the
# training script's `random_training_set` calls helpers' `char_tensor` on every step, whose
# loop fills a tensor one character at a time from Python values (HARP401, through the
# calls, on every step; the `generate` call under `epoch % 100` is the rarer path).
# RUN: cd %S/Inputs/star_reexport && %expect-exit 1 %harp analyze train.py generate.py helpers.py > %t
# RUN: FileCheck %s < %t
# CHECK: helpers.py:10:5: HARP401 elementwise-python-loop: the `for c` loop (line 10) fills `tensor` one element at a time from Python values (a framework op per element), on every iteration of the `for epoch` loop (line 43) in train.py through `char_tensor`, `random_training_set`
# CHECK-NOT: : HARP
