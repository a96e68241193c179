# `harp analyze` prints path:line:col: HARPnnn lines and exits 1 when there are hints.
# RUN: %expect-exit 1 %harp analyze %S/Inputs/train.py > %t.txt
# RUN: FileCheck %s < %t.txt
# CHECK: {{.*}}Inputs/train.py:25:20: HARP201 host-sync-in-loop: `loss.item()` copies `loss` to the host {{.*}} the `for x, y` loop (line 19)
# CHECK-NOT: HARP
