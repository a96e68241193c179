// Pass test for --harp-zero-grad (HARP502) on the IR harp imports from:
//   opt.zero_grad(set_to_none=False)
//   opt.zero_grad()
// RUN: %harp-opt %s --harp-zero-grad | FileCheck %s
// RUN: %harp-opt %s | FileCheck --check-prefix=NOPASS %s
// NOPASS-NOT: harp.hints
// CHECK: harp.hints = [{{.*}}id = "HARP502", message = "`opt.zero_grad(set_to_none=False)` keeps every gradient buffer
// CHECK-NOT: id = "HARP502"
module {
  "host.module"() ({
    %0 = "host.load"() {name = "opt"} : () -> !host.obj loc(#loc2)
    %1 = "host.getattr"(%0) {attr = "zero_grad"} : (!host.obj) -> !host.obj loc(#loc3)
    %2 = "host.constant"() {kind = "bool", value = false} : () -> !host.obj loc(#loc4)
    %3 = "host.call"(%1, %2) {effect = "unknown", harp.receiver = "opt", kwnames = ["set_to_none"], method = "zero_grad"} : (!host.obj, !host.obj) -> !host.obj loc(#loc5)
    %4 = "host.load"() {name = "opt"} : () -> !host.obj loc(#loc6)
    %5 = "host.getattr"(%4) {attr = "zero_grad"} : (!host.obj) -> !host.obj loc(#loc7)
    %6 = "host.call"(%5) {effect = "unknown", harp.receiver = "opt", kwnames = [], method = "zero_grad"} : (!host.obj) -> !host.obj loc(#loc8)
    "hostcf.yield"() : () -> () loc(#loc1)
  }) {filename = "harp-zero-grad.py", sym_name = "harp-zero-grad"} : () -> () loc(#loc1)
} loc(#loc)
#loc = loc("harp-zero-grad.py":1:1)
#loc1 = loc("harp-zero-grad.py":1:1 to 3:1)
#loc2 = loc("harp-zero-grad.py":1:1 to :4)
#loc3 = loc("harp-zero-grad.py":1:1 to :14)
#loc4 = loc("harp-zero-grad.py":1:27 to :32)
#loc5 = loc("harp-zero-grad.py":1:1 to :33)
#loc6 = loc("harp-zero-grad.py":2:1 to :4)
#loc7 = loc("harp-zero-grad.py":2:1 to :14)
#loc8 = loc("harp-zero-grad.py":2:1 to :16)
