// Pass test for --harp-missing-no-grad (HARP303) on the IR harp imports from:
//   import torch
//   model = torch.nn.Linear(2, 2)
//   for x in xs:
//       model(x)
//   with torch.no_grad():
//       for x in xs:
//           model(x)
// RUN: %harp-opt %s --harp-missing-no-grad | FileCheck %s
// RUN: %harp-opt %s | FileCheck --check-prefix=NOPASS %s
// NOPASS-NOT: harp.hints
// CHECK: harp.hints = [{{.*}}id = "HARP303", message = "`model(...)` runs with autograd recording on every iteration of the `for x` loop (line 3)
// CHECK-NOT: id = "HARP303"
#loc11 = loc("harp-missing-no-grad.py":3:1 to 4:13)
#loc19 = loc("harp-missing-no-grad.py":5:1 to 7:17)
#loc21 = loc("harp-missing-no-grad.py":6:5 to 7:17)
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
    %7 = "host.load"() {name = "xs"} : () -> !host.obj loc(#loc10)
    "host.for"(%7) ({
    ^bb0(%arg0: !host.obj loc("harp-missing-no-grad.py":3:1 to 4:13)):
      "host.store"(%arg0) {name = "x"} : (!host.obj) -> () loc(#loc12)
      %11 = "host.load"() {harp.framework = "torch", harp.kind = "module", harp.kind_status = "proved", name = "model"} : () -> !host.obj loc(#loc13)
      %12 = "host.load"() {name = "x"} : () -> !host.obj loc(#loc14)
      %13 = "host.call"(%11, %12) {effect = "unknown", harp.framework = "torch", harp.kind = "tensor", harp.kind_reason = "calling model (a torch module) is assumed to return a tensor", harp.kind_status = "speculated", kwnames = [""]} : (!host.obj, !host.obj) -> !host.obj loc(#loc15)
      "hostcf.yield"() : () -> () loc(#loc15)
    }, {
      "hostcf.yield"() : () -> () loc(#loc1)
    }) {harp.mutates = ["x"], harp.mutates_status = "speculated", target = "x"} : (!host.obj) -> () loc(#loc11)
    %8 = "host.load"() {name = "torch", qualname = "torch"} : () -> !host.obj loc(#loc16)
    %9 = "host.getattr"(%8) {attr = "no_grad", qualname = "torch.no_grad"} : (!host.obj) -> !host.obj loc(#loc17)
    %10 = "host.call"(%9) {effect = "config", kwnames = [], method = "no_grad", qualname = "torch.no_grad"} : (!host.obj) -> !host.obj loc(#loc18)
    "host.with"(%10) ({
    ^bb0(%arg0: !host.obj loc("harp-missing-no-grad.py":5:1 to 7:17)):
      %11 = "host.load"() {name = "xs"} : () -> !host.obj loc(#loc20)
      "host.for"(%11) ({
      ^bb0(%arg1: !host.obj loc("harp-missing-no-grad.py":6:5 to 7:17)):
        "host.store"(%arg1) {name = "x"} : (!host.obj) -> () loc(#loc22)
        %12 = "host.load"() {harp.framework = "torch", harp.kind = "module", harp.kind_status = "proved", name = "model"} : () -> !host.obj loc(#loc23)
        %13 = "host.load"() {name = "x"} : () -> !host.obj loc(#loc24)
        %14 = "host.call"(%12, %13) {effect = "unknown", harp.framework = "torch", harp.kind = "tensor", harp.kind_reason = "calling model (a torch module) is assumed to return a tensor", harp.kind_status = "speculated", kwnames = [""]} : (!host.obj, !host.obj) -> !host.obj loc(#loc25)
        "hostcf.yield"() : () -> () loc(#loc25)
      }, {
        "hostcf.yield"() : () -> () loc(#loc1)
      }) {harp.mutates = ["x"], harp.mutates_status = "speculated", target = "x"} : (!host.obj) -> () loc(#loc21)
      "hostcf.yield"() : () -> () loc(#loc21)
    }) {harp.contexts = ["torch.no_grad"]} : (!host.obj) -> () loc(#loc19)
    "hostcf.yield"() : () -> () loc(#loc1)
  }) {filename = "harp-missing-no-grad.py", sym_name = "harp-missing-no-grad"} : () -> () loc(#loc1)
} loc(#loc)
#loc = loc("harp-missing-no-grad.py":1:1)
#loc1 = loc("harp-missing-no-grad.py":1:1 to 8:1)
#loc2 = loc("harp-missing-no-grad.py":1:8 to :13)
#loc3 = loc("harp-missing-no-grad.py":2:9 to :14)
#loc4 = loc("harp-missing-no-grad.py":2:9 to :17)
#loc5 = loc("harp-missing-no-grad.py":2:9 to :24)
#loc6 = loc("harp-missing-no-grad.py":2:25 to :26)
#loc7 = loc("harp-missing-no-grad.py":2:28 to :29)
#loc8 = loc("harp-missing-no-grad.py":2:9 to :30)
#loc9 = loc("harp-missing-no-grad.py":2:1 to :6)
#loc10 = loc("harp-missing-no-grad.py":3:10 to :12)
#loc12 = loc("harp-missing-no-grad.py":3:5 to :6)
#loc13 = loc("harp-missing-no-grad.py":4:5 to :10)
#loc14 = loc("harp-missing-no-grad.py":4:11 to :12)
#loc15 = loc("harp-missing-no-grad.py":4:5 to :13)
#loc16 = loc("harp-missing-no-grad.py":5:6 to :11)
#loc17 = loc("harp-missing-no-grad.py":5:6 to :19)
#loc18 = loc("harp-missing-no-grad.py":5:6 to :21)
#loc20 = loc("harp-missing-no-grad.py":6:14 to :16)
#loc22 = loc("harp-missing-no-grad.py":6:9 to :10)
#loc23 = loc("harp-missing-no-grad.py":7:9 to :14)
#loc24 = loc("harp-missing-no-grad.py":7:15 to :16)
#loc25 = loc("harp-missing-no-grad.py":7:9 to :17)
