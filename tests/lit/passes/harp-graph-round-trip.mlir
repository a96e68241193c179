// Pass test for --harp-graph-round-trip (HARP204) on the IR harp imports from:
//   import torch
//   for x in xs:
//       a = x.numpy() * 2
//       t = torch.from_numpy(a)
//       u = torch.from_numpy(x0)
// RUN: %harp-opt %s --harp-graph-round-trip | FileCheck %s
// RUN: %harp-opt %s | FileCheck --check-prefix=NOPASS %s
// NOPASS-NOT: harp.hints
// CHECK: harp.hints = [{{.*}}id = "HARP204", message = "`x.numpy()` takes a tensor to the host
// CHECK-NOT: id = "HARP204"
#loc4 = loc("harp-graph-round-trip.py":2:1 to 5:29)
module {
  "host.module"() ({
    %0 = "host.import"() {module = "torch", qualname = "torch"} : () -> !host.obj loc(#loc2)
    "host.store"(%0) {name = "torch"} : (!host.obj) -> () loc(#loc2)
    %1 = "host.load"() {name = "xs"} : () -> !host.obj loc(#loc3)
    "host.for"(%1) ({
    ^bb0(%arg0: !host.obj loc("harp-graph-round-trip.py":2:1 to 5:29)):
      "host.store"(%arg0) {name = "x"} : (!host.obj) -> () loc(#loc5)
      %2 = "host.load"() {name = "x"} : () -> !host.obj loc(#loc6)
      %3 = "host.getattr"(%2) {attr = "numpy", qualname = "torch.Tensor.numpy"} : (!host.obj) -> !host.obj loc(#loc7)
      %4 = "host.call"(%3) {effect = "sync", harp.framework = "torch", harp.kind = "ndarray", harp.kind_reason = "`x` is assumed to be a torch tensor because `.numpy()` is torch.Tensor.numpy", harp.kind_status = "speculated", harp.receiver = "x", harp.receiver_reason = "`x` is assumed to be a torch tensor because `.numpy()` is torch.Tensor.numpy", kwnames = [], method = "numpy", qualname = "torch.Tensor.numpy"} : (!host.obj) -> !host.obj loc(#loc8)
      %5 = "host.constant"() {kind = "int", value = 2 : i64} : () -> !host.obj loc(#loc9)
      %6 = "host.binop"(%4, %5) {op = "mul"} : (!host.obj, !host.obj) -> !host.obj loc(#loc10)
      "host.store"(%6) {name = "a"} : (!host.obj) -> () loc(#loc11)
      %7 = "host.load"() {name = "torch", qualname = "torch"} : () -> !host.obj loc(#loc12)
      %8 = "host.getattr"(%7) {attr = "from_numpy", qualname = "torch.from_numpy"} : (!host.obj) -> !host.obj loc(#loc13)
      %9 = "host.load"() {name = "a"} : () -> !host.obj loc(#loc14)
      %10 = "host.call"(%8, %9) {effect = "transfer", harp.framework = "torch", harp.kind = "tensor", harp.kind_status = "proved", kwnames = [""], method = "from_numpy", qualname = "torch.from_numpy"} : (!host.obj, !host.obj) -> !host.obj loc(#loc15)
      "host.store"(%10) {name = "t"} : (!host.obj) -> () loc(#loc16)
      %11 = "host.load"() {name = "torch", qualname = "torch"} : () -> !host.obj loc(#loc17)
      %12 = "host.getattr"(%11) {attr = "from_numpy", qualname = "torch.from_numpy"} : (!host.obj) -> !host.obj loc(#loc18)
      %13 = "host.load"() {name = "x0"} : () -> !host.obj loc(#loc19)
      %14 = "host.call"(%12, %13) {effect = "transfer", harp.framework = "torch", harp.kind = "tensor", harp.kind_status = "proved", kwnames = [""], method = "from_numpy", qualname = "torch.from_numpy"} : (!host.obj, !host.obj) -> !host.obj loc(#loc20)
      "host.store"(%14) {name = "u"} : (!host.obj) -> () loc(#loc21)
      "hostcf.yield"() : () -> () loc(#loc22)
    }, {
      "hostcf.yield"() : () -> () loc(#loc1)
    }) {harp.mutates = ["a", "t", "u", "x"], harp.mutates_status = "speculated", target = "x"} : (!host.obj) -> () loc(#loc4)
    "hostcf.yield"() : () -> () loc(#loc1)
  }) {filename = "harp-graph-round-trip.py", sym_name = "harp-graph-round-trip"} : () -> () loc(#loc1)
} loc(#loc)
#loc = loc("harp-graph-round-trip.py":1:1)
#loc1 = loc("harp-graph-round-trip.py":1:1 to 6:1)
#loc2 = loc("harp-graph-round-trip.py":1:8 to :13)
#loc3 = loc("harp-graph-round-trip.py":2:10 to :12)
#loc5 = loc("harp-graph-round-trip.py":2:5 to :6)
#loc6 = loc("harp-graph-round-trip.py":3:9 to :10)
#loc7 = loc("harp-graph-round-trip.py":3:9 to :16)
#loc8 = loc("harp-graph-round-trip.py":3:9 to :18)
#loc9 = loc("harp-graph-round-trip.py":3:21 to :22)
#loc10 = loc("harp-graph-round-trip.py":3:9 to :22)
#loc11 = loc("harp-graph-round-trip.py":3:5 to :6)
#loc12 = loc("harp-graph-round-trip.py":4:9 to :14)
#loc13 = loc("harp-graph-round-trip.py":4:9 to :25)
#loc14 = loc("harp-graph-round-trip.py":4:26 to :27)
#loc15 = loc("harp-graph-round-trip.py":4:9 to :28)
#loc16 = loc("harp-graph-round-trip.py":4:5 to :6)
#loc17 = loc("harp-graph-round-trip.py":5:9 to :14)
#loc18 = loc("harp-graph-round-trip.py":5:9 to :25)
#loc19 = loc("harp-graph-round-trip.py":5:26 to :28)
#loc20 = loc("harp-graph-round-trip.py":5:9 to :29)
#loc21 = loc("harp-graph-round-trip.py":5:5 to :6)
#loc22 = loc("harp-graph-round-trip.py":3:5 to 5:29)
