# Which scripts of a folder run together is a fact about imports: a folder of separate
# examples that share no module of the program is several programs, and a nearest-neighbour
# search beside a regression script is its own main loop (its per-query copy is reported);
# an evaluation script that imports the model module the training script imports is a
# pass over the trained model (run once after training): a copy in its loop is the
# aggressive level's.
# RUN: %expect-exit 1 %harp analyze %S/Inputs/workflows > %t.out
# RUN: FileCheck %s < %t.out
# CHECK-NOT: evaluate.py
# CHECK: nearest_neighbour.py:7:17: HARP202 transfer-in-loop
# CHECK-NOT: evaluate.py
# RUN: %expect-exit 1 %harp analyze --level aggressive %S/Inputs/workflows > %t.agg
# RUN: FileCheck %s --check-prefix=AGG < %t.agg
# AGG: evaluate.py:10:{{[0-9]+}}: HARP202 transfer-in-loop
