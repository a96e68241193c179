// Pass test for --harp-transfer-in-loop (HARP202) on the IR harp imports from:
//   import torch
//   for step in range(3):
//       x = torch.tensor(data)
//       y = torch.tensor([step])
// RUN: %harp-opt %s --harp-transfer-in-loop | FileCheck %s
// RUN: %harp-opt %s | FileCheck --check-prefix=NOPASS %s
// NOPASS-NOT: harp.hints
// CHECK: harp.hints = [{{.*}}id = "HARP202", message = "`data` is moved to the device (`torch.tensor`) on every iteration of the `for step` loop (line 2)
// CHECK-NOT: id = "HARP202"
#loc6 = loc("harp-transfer-in-loop.py":2:1 to 4:29)
module {
  "host.module"() ({
    %0 = "host.import"() {module = "torch", qualname = "torch"} : () -> !host.obj loc(#loc2)
    "host.store"(%0) {name = "torch"} : (!host.obj) -> () loc(#loc2)
    %1 = "host.load"() {name = "range", qualname = "builtins.range", scope = "builtin"} : () -> !host.obj loc(#loc3)
    %2 = "host.constant"() {kind = "int", value = 3 : i64} : () -> !host.obj loc(#loc4)
    %3 = "host.call"(%1, %2) {effect = "pure", kwnames = [""], qualname = "builtins.range"} : (!host.obj, !host.obj) -> !host.obj loc(#loc5)
    "host.for"(%3) ({
    ^bb0(%arg0: !host.obj loc("harp-transfer-in-loop.py":2:1 to 4:29)):
      "host.store"(%arg0) {name = "step"} : (!host.obj) -> () loc(#loc7)
      %4 = "host.load"() {name = "torch", qualname = "torch"} : () -> !host.obj loc(#loc8)
      %5 = "host.getattr"(%4) {attr = "tensor", qualname = "torch.tensor"} : (!host.obj) -> !host.obj loc(#loc9)
      %6 = "host.load"() {name = "data"} : () -> !host.obj loc(#loc10)
      %7 = "host.call"(%5, %6) {effect = "transfer", harp.framework = "torch", harp.kind = "tensor", harp.kind_status = "proved", kwnames = [""], method = "tensor", qualname = "torch.tensor"} : (!host.obj, !host.obj) -> !host.obj loc(#loc11)
      "host.store"(%7) {name = "x"} : (!host.obj) -> () loc(#loc12)
      %8 = "host.load"() {name = "torch", qualname = "torch"} : () -> !host.obj loc(#loc13)
      %9 = "host.getattr"(%8) {attr = "tensor", qualname = "torch.tensor"} : (!host.obj) -> !host.obj loc(#loc14)
      %10 = "host.load"() {name = "step"} : () -> !host.obj loc(#loc15)
      %11 = "host.list"(%10) : (!host.obj) -> !host.obj loc(#loc16)
      %12 = "host.call"(%9, %11) {effect = "transfer", harp.framework = "torch", harp.kind = "tensor", harp.kind_status = "proved", kwnames = [""], method = "tensor", qualname = "torch.tensor"} : (!host.obj, !host.obj) -> !host.obj loc(#loc17)
      "host.store"(%12) {name = "y"} : (!host.obj) -> () loc(#loc18)
      "hostcf.yield"() : () -> () loc(#loc19)
    }, {
      "hostcf.yield"() : () -> () loc(#loc1)
    }) {harp.mutates = ["step", "x", "y"], harp.mutates_status = "speculated", target = "step"} : (!host.obj) -> () loc(#loc6)
    "hostcf.yield"() : () -> () loc(#loc1)
  }) {filename = "harp-transfer-in-loop.py", sym_name = "harp-transfer-in-loop"} : () -> () loc(#loc1)
} loc(#loc)
#loc = loc("harp-transfer-in-loop.py":1:1)
#loc1 = loc("harp-transfer-in-loop.py":1:1 to 5:1)
#loc2 = loc("harp-transfer-in-loop.py":1:8 to :13)
#loc3 = loc("harp-transfer-in-loop.py":2:13 to :18)
#loc4 = loc("harp-transfer-in-loop.py":2:19 to :20)
#loc5 = loc("harp-transfer-in-loop.py":2:13 to :21)
#loc7 = loc("harp-transfer-in-loop.py":2:5 to :9)
#loc8 = loc("harp-transfer-in-loop.py":3:9 to :14)
#loc9 = loc("harp-transfer-in-loop.py":3:9 to :21)
#loc10 = loc("harp-transfer-in-loop.py":3:22 to :26)
#loc11 = loc("harp-transfer-in-loop.py":3:9 to :27)
#loc12 = loc("harp-transfer-in-loop.py":3:5 to :6)
#loc13 = loc("harp-transfer-in-loop.py":4:9 to :14)
#loc14 = loc("harp-transfer-in-loop.py":4:9 to :21)
#loc15 = loc("harp-transfer-in-loop.py":4:23 to :27)
#loc16 = loc("harp-transfer-in-loop.py":4:22 to :28)
#loc17 = loc("harp-transfer-in-loop.py":4:9 to :29)
#loc18 = loc("harp-transfer-in-loop.py":4:5 to :6)
#loc19 = loc("harp-transfer-in-loop.py":3:5 to 4:29)
