# `harp analyze` prints path:line:col: HARPnnn lines and exits 1 when there are hints.
# RUN: %expect-exit 1 %harp analyze %S/Inputs/train.py > %t.txt
# RUN: FileCheck %s < %t.txt
# CHECK: {{.*}}Inputs/train.py:25:27: HARP201 host-sync-in-loop: `p.grad.norm().item()` copies `p.grad.norm()` to the host {{.*}} the `for p` loop (line 24), which runs on every iteration of the `for x, y` loop (line 19)
# CHECK-NOT: HARP
