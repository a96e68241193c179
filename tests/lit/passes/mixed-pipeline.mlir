// Upstream passes and harp passes in one pipeline, as a pipeline string and as flags.
// RUN: %harp-opt %s --pass-pipeline='builtin.module(canonicalize,harp-host-sync-in-loop,cse)' | FileCheck %s
// RUN: %harp-opt %s --canonicalize --harp-host-sync-in-loop --cse | FileCheck %s

// cse merges the two identical pure constants; host ops with unknown effects stay.
// CHECK: %[[C:.*]] = arith.constant 1 : i64
// CHECK-NOT: arith.constant
// CHECK: "host.for"
// CHECK: harp.hints = [{{.*}}id = "HARP201"
func.func @f() -> (i64, i64) {
  %a = arith.constant 1 : i64
  %b = arith.constant 1 : i64
  "host.module"() ({
    %range = "host.load"() {name = "range"} : () -> !host.obj
    "host.for"(%range) ({
    ^bb0(%i: !host.obj):
      %t = "host.load"() {name = "x"} : () -> !host.obj
      %v = "host.call"(%t) {kwnames = [], effect = "sync", method = "item"} : (!host.obj) -> !host.obj
      "hostcf.yield"() : () -> ()
    }, {
      "hostcf.yield"() : () -> ()
    }) {target = "i"} : (!host.obj) -> ()
    "hostcf.yield"() : () -> ()
  }) {sym_name = "m", filename = "m.py"} : () -> ()
  return %a, %b : i64, i64
}
