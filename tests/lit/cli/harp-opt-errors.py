# Parse errors are file:line:col: error lines with exit status 1.
# RUN: %expect-exit 1 %harp-opt %S/Inputs/bad.mlir 2> %t.err
# RUN: FileCheck %s < %t.err
# CHECK: {{.*}}Inputs/bad.mlir:3:{{[0-9]+}}: error: {{.*}}
# RUN: %expect-exit 1 %harp-opt %S/Inputs/train.py --pass-pipeline='builtin.module(no-such-pass)' 2> %t.pipe
# RUN: FileCheck --check-prefix=PIPE %s < %t.pipe
# PIPE: error: {{.*}}no-such-pass
