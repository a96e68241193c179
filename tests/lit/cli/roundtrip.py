# The printed module parses and verifies again, in pretty and in generic form, and the
# generic form is accepted by torch-mlir-opt with the exported IRDL.
# RUN: %harp import %S/Inputs/train.py > %t.mlir
# RUN: %harp-opt %t.mlir --mlir-print-debuginfo > %t.again.mlir
# RUN: %harp-opt %t.again.mlir --mlir-print-debuginfo | diff - %t.again.mlir
# RUN: %harp import %S/Inputs/train.py --mlir-print-op-generic | %harp-opt --mlir-print-op-generic > %t.generic.mlir
# RUN: %harp-opt --emit-irdl > %t.irdl.mlir
# RUN: %torch-mlir-opt --irdl-file=%t.irdl.mlir --allow-unregistered-dialect %t.generic.mlir --mlir-print-op-generic | FileCheck %s
# CHECK: "host.module"() ({
# CHECK: "host.for"
# CHECK: "hostcf.yield"
