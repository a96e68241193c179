# Parse errors are file:line:col: error lines with exit status 1.
# RUN: %expect-exit 1 %harp-opt %S/Inputs/bad.mlir 2> %t.err
# RUN: FileCheck %s < %t.err
# CHECK: {{.*}}Inputs/bad.mlir:3:{{[0-9]+}}: error: {{.*}}
# RUN: %expect-exit 1 %harp-opt %S/Inputs/train.py --pass-pipeline='builtin.module(no-such-pass)' 2> %t.pipe
# RUN: FileCheck --check-prefix=PIPE %s < %t.pipe
# PIPE: error: {{.*}}no-such-pass
# harp's passes take no options: a misspelt one is an error, not silently dropped.
# RUN: %expect-exit 1 %harp-opt %S/Inputs/train.py --pass-pipeline='builtin.module(harp-host-sync-in-loop{bogus=1})' 2> %t.opt
# RUN: FileCheck --check-prefix=OPT %s < %t.opt
# OPT: error: 'harp-host-sync-in-loop' takes no options
# Input that is not UTF-8, and an output path that cannot be written: one error line each.
# RUN: printf '\377\376 module' > %t.bin.mlir
# RUN: %expect-exit 1 %harp-opt %t.bin.mlir 2> %t.enc
# RUN: FileCheck --check-prefix=ENC %s < %t.enc
# ENC: harp-opt: error: cannot read '{{.*}}.bin.mlir': not UTF-8
# RUN: %expect-exit 1 %harp-opt %S/Inputs/train.py -o %t.missing/out.mlir 2> %t.out
# RUN: FileCheck --check-prefix=OUT %s < %t.out
# OUT: harp-opt: error: cannot write '{{.*}}out.mlir': No such file or directory
