# RUN: %harp-opt --list-passes | FileCheck %s
# CHECK: --harp-host-sync-in-loop {{.*}}HARP201
# RUN: %harp --list-hints | FileCheck --check-prefix=HINTS %s
# HINTS: HARP201  host-sync-in-loop
# RUN: %harp explain harp201 | FileCheck --check-prefix=EXPLAIN %s
# EXPLAIN: HARP201 host-sync-in-loop
# EXPLAIN: What: a tensor converted to a host value inside a loop
# EXPLAIN: Why: the host waits for the device
# EXPLAIN: Example, before:
# EXPLAIN: norms += p.grad.norm().item()
# EXPLAIN: after:
# EXPLAIN: norms = norms.item()
# EXPLAIN: Automatic fix (safe (unsafe in an epoch loop)):
# EXPLAIN: It declines when:
# EXPLAIN: May assume
# EXPLAIN-NEXT: tensor {{ +}}a value is a tensor
# RUN: not %harp explain HARP999 2>&1 | FileCheck --check-prefix=UNKNOWN %s
# UNKNOWN: unknown hint 'HARP999'
