// Pass test for --harp-per-sample-call (HARP403) on the IR harp imports from:
//   import torch
//   model = torch.nn.Linear(2, 2)
//   with torch.no_grad():
//       for i in range(8):
//           model(batch[i])
//       model(batch)
// RUN: %harp-opt %s --harp-per-sample-call | FileCheck %s
// RUN: %harp-opt %s | FileCheck --check-prefix=NOPASS %s
// NOPASS-NOT: harp.hints
// CHECK: harp.hints = [{{.*}}id = "HARP403", message = "`model` is called on one example per iteration of the `for i` loop (line 4)
// CHECK-NOT: id = "HARP403"
#loc13 = loc("harp-per-sample-call.py":3:1 to 6:17)
#loc17 = loc("harp-per-sample-call.py":4:5 to 5:24)
module {
  "host.module"() ({
    %0 = "host.import"() {module = "torch", qualname = "torch"} : () -> !host.obj loc(#loc2)
    "host.store"(%0) {name = "torch"} : (!host.obj) -> () loc(#loc2)
    %1 = "host.load"() {name = "torch", qualname = "torch"} : () -> !host.obj loc(#loc3)
    %2 = "host.getattr"(%1) {attr = "nn", qualname = "torch.nn"} : (!host.obj) -> !host.obj loc(#loc4)
    %3 = "host.getattr"(%2) {attr = "Linear", qualname = "torch.nn.Linear"} : (!host.obj) -> !host.obj loc(#loc5)
    %4 = "host.constant"() {kind = "int", value = 2 : i64} : () -> !host.obj loc(#loc6)
    %5 = "host.constant"() {kind = "int", value = 2 : i64} : () -> !host.obj loc(#loc7)
    %6 = "host.call"(%3, %4, %5) {effect = "construct", harp.framework = "torch", harp.kind = "module", harp.kind_status = "proved", kwnames = ["", ""], method = "Linear", qualname = "torch.nn.Linear"} : (!host.obj, !host.obj, !host.obj) -> !host.obj loc(#loc8)
    "host.store"(%6) {name = "model"} : (!host.obj) -> () loc(#loc9)
    %7 = "host.load"() {name = "torch", qualname = "torch"} : () -> !host.obj loc(#loc10)
    %8 = "host.getattr"(%7) {attr = "no_grad", qualname = "torch.no_grad"} : (!host.obj) -> !host.obj loc(#loc11)
    %9 = "host.call"(%8) {effect = "config", kwnames = [], method = "no_grad", qualname = "torch.no_grad"} : (!host.obj) -> !host.obj loc(#loc12)
    "host.with"(%9) ({
    ^bb0(%arg0: !host.obj loc("harp-per-sample-call.py":3:1 to 6:17)):
      %10 = "host.load"() {name = "range", qualname = "builtins.range", scope = "builtin"} : () -> !host.obj loc(#loc14)
      %11 = "host.constant"() {kind = "int", value = 8 : i64} : () -> !host.obj loc(#loc15)
      %12 = "host.call"(%10, %11) {effect = "pure", kwnames = [""], qualname = "builtins.range"} : (!host.obj, !host.obj) -> !host.obj loc(#loc16)
      "host.for"(%12) ({
      ^bb0(%arg1: !host.obj loc("harp-per-sample-call.py":4:5 to 5:24)):
        "host.store"(%arg1) {name = "i"} : (!host.obj) -> () loc(#loc18)
        %16 = "host.load"() {harp.framework = "torch", harp.kind = "module", harp.kind_status = "proved", name = "model"} : () -> !host.obj loc(#loc19)
        %17 = "host.load"() {name = "batch"} : () -> !host.obj loc(#loc20)
        %18 = "host.load"() {name = "i"} : () -> !host.obj loc(#loc21)
        %19 = "host.getitem"(%17, %18) : (!host.obj, !host.obj) -> !host.obj loc(#loc22)
        %20 = "host.call"(%16, %19) {effect = "unknown", harp.framework = "torch", harp.kind = "tensor", harp.kind_reason = "calling model (a torch module) is assumed to return a tensor", harp.kind_status = "speculated", kwnames = [""]} : (!host.obj, !host.obj) -> !host.obj loc(#loc23)
        "hostcf.yield"() : () -> () loc(#loc23)
      }, {
        "hostcf.yield"() : () -> () loc(#loc1)
      }) {harp.mutates = ["i"], harp.mutates_status = "speculated", target = "i"} : (!host.obj) -> () loc(#loc17)
      %13 = "host.load"() {harp.framework = "torch", harp.kind = "module", harp.kind_status = "proved", name = "model"} : () -> !host.obj loc(#loc24)
      %14 = "host.load"() {name = "batch"} : () -> !host.obj loc(#loc25)
      %15 = "host.call"(%13, %14) {effect = "unknown", harp.framework = "torch", harp.kind = "tensor", harp.kind_reason = "calling model (a torch module) is assumed to return a tensor", harp.kind_status = "speculated", kwnames = [""]} : (!host.obj, !host.obj) -> !host.obj loc(#loc26)
      "hostcf.yield"() : () -> () loc(#loc27)
    }) {harp.contexts = ["torch.no_grad"]} : (!host.obj) -> () loc(#loc13)
    "hostcf.yield"() : () -> () loc(#loc1)
  }) {filename = "harp-per-sample-call.py", sym_name = "harp-per-sample-call"} : () -> () loc(#loc1)
} loc(#loc)
#loc = loc("harp-per-sample-call.py":1:1)
#loc1 = loc("harp-per-sample-call.py":1:1 to 7:1)
#loc2 = loc("harp-per-sample-call.py":1:8 to :13)
#loc3 = loc("harp-per-sample-call.py":2:9 to :14)
#loc4 = loc("harp-per-sample-call.py":2:9 to :17)
#loc5 = loc("harp-per-sample-call.py":2:9 to :24)
#loc6 = loc("harp-per-sample-call.py":2:25 to :26)
#loc7 = loc("harp-per-sample-call.py":2:28 to :29)
#loc8 = loc("harp-per-sample-call.py":2:9 to :30)
#loc9 = loc("harp-per-sample-call.py":2:1 to :6)
#loc10 = loc("harp-per-sample-call.py":3:6 to :11)
#loc11 = loc("harp-per-sample-call.py":3:6 to :19)
#loc12 = loc("harp-per-sample-call.py":3:6 to :21)
#loc14 = loc("harp-per-sample-call.py":4:14 to :19)
#loc15 = loc("harp-per-sample-call.py":4:20 to :21)
#loc16 = loc("harp-per-sample-call.py":4:14 to :22)
#loc18 = loc("harp-per-sample-call.py":4:9 to :10)
#loc19 = loc("harp-per-sample-call.py":5:9 to :14)
#loc20 = loc("harp-per-sample-call.py":5:15 to :20)
#loc21 = loc("harp-per-sample-call.py":5:21 to :22)
#loc22 = loc("harp-per-sample-call.py":5:15 to :23)
#loc23 = loc("harp-per-sample-call.py":5:9 to :24)
#loc24 = loc("harp-per-sample-call.py":6:5 to :10)
#loc25 = loc("harp-per-sample-call.py":6:11 to :16)
#loc26 = loc("harp-per-sample-call.py":6:5 to :17)
#loc27 = loc("harp-per-sample-call.py":4:5 to 6:17)
