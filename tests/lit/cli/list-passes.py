# RUN: %harp-opt --list-passes | FileCheck %s
# CHECK: --harp-host-sync-in-loop {{.*}}HARP201
# RUN: %harp --list-hints | FileCheck --check-prefix=HINTS %s
# HINTS: HARP201  host-sync-in-loop
# RUN: %harp explain harp201 | FileCheck --check-prefix=EXPLAIN %s
# EXPLAIN: HARP201 host-sync-in-loop
# EXPLAIN: Before:
# EXPLAIN: total += loss.item()
# EXPLAIN: After:
# RUN: not %harp explain HARP999 2>&1 | FileCheck --check-prefix=UNKNOWN %s
# UNKNOWN: unknown hint 'HARP999'
