# A helper of another file builds the loaders and returns them as a tuple; the caller
# unpacks it, and the training loop iterates one of them (with `len(loader)` for its
# log): the loader is followed from the helper's `return` to the loop, and the device
# is the training loop's file's (the helper's file places nothing on an accelerator).
# The test loader feeds only an evaluation pass: the aggressive level's.
# RUN: cd %S/Inputs/loader_program && %expect-exit 1 %harp analyze --output-format full train.py data.py > %t
# RUN: FileCheck %s < %t
# CHECK: data.py:9:20: HARP501
# CHECK: assumes: accelerator (speculated, low risk: the program places tensors on an accelerator
# CHECK-NOT: data.py:10:
