# harp-opt lowers a .py input first, and writes -o.
# RUN: %harp-opt %S/Inputs/train.py --harp-host-sync-in-loop -o %t.mlir
# RUN: FileCheck %s < %t.mlir
# CHECK: "host.call"{{.*}}harp.hints = [{{.*}}id = "HARP201"
# Python on stdin is not MLIR: a parse error naming <stdin>, exit 1.
# RUN: %expect-exit 1 %harp-opt - < %S/Inputs/train.py 2> %t.err
# RUN: FileCheck --check-prefix=STDIN %s < %t.err
# STDIN: <stdin>:1:1: error: {{.*}}
