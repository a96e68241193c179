# A script that imports the program's module `model` and rebinds the name to the model it
# builds (`model = model.Stack()`): the call `model(x)` runs `Stack.forward` of model.py,
# whose returns say that the middle place is a list of layer outputs (a loop over layers)
# and the last a tensor (a loop over its elements, each read on the host).
# RUN: cd %S/Inputs/shadowed_module && %expect-exit 1 %harp analyze train.py model.py > %t
# RUN: FileCheck %s < %t
# CHECK-NOT: train.py:18:
# CHECK: train.py:22:
# CHECK-SAME: HARP401
# CHECK-NOT: train.py:18:
