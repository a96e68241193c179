// Pass test for --harp-split-session-runs (HARP104) on the IR harp imports from:
//   import tensorflow.compat.v1 as tf
//   sess = tf.Session()
//   for step in range(3):
//       sess.run(acc)
//       sess.run(loss)
// RUN: %harp-opt %s --harp-split-session-runs | FileCheck %s
// RUN: %harp-opt %s | FileCheck --check-prefix=NOPASS %s
// NOPASS-NOT: harp.hints
// CHECK: harp.hints = [{{.*}}id = "HARP104", message = "2 `Session.run`/`.eval()` calls in a row on every iteration of the `for step` loop (line 3)
// CHECK-NOT: id = "HARP104"
#loc10 = loc("harp-split-session-runs.py":3:1 to 5:19)
module {
  "host.module"() ({
    %0 = "host.import"() {module = "tensorflow.compat.v1", qualname = "tensorflow.compat.v1"} : () -> !host.obj loc(#loc2)
    "host.store"(%0) {name = "tf"} : (!host.obj) -> () loc(#loc2)
    %1 = "host.load"() {name = "tf", qualname = "tensorflow.compat.v1"} : () -> !host.obj loc(#loc3)
    %2 = "host.getattr"(%1) {attr = "Session", qualname = "tensorflow.compat.v1.Session"} : (!host.obj) -> !host.obj loc(#loc4)
    %3 = "host.call"(%2) {effect = "construct", harp.framework = "tf", harp.kind = "session", harp.kind_status = "proved", kwnames = [], method = "Session", qualname = "tensorflow.compat.v1.Session"} : (!host.obj) -> !host.obj loc(#loc5)
    "host.store"(%3) {name = "sess"} : (!host.obj) -> () loc(#loc6)
    %4 = "host.load"() {name = "range", qualname = "builtins.range", scope = "builtin"} : () -> !host.obj loc(#loc7)
    %5 = "host.constant"() {kind = "int", value = 3 : i64} : () -> !host.obj loc(#loc8)
    %6 = "host.call"(%4, %5) {effect = "pure", kwnames = [""], qualname = "builtins.range"} : (!host.obj, !host.obj) -> !host.obj loc(#loc9)
    "host.for"(%6) ({
    ^bb0(%arg0: !host.obj loc("harp-split-session-runs.py":3:1 to 5:19)):
      "host.store"(%arg0) {name = "step"} : (!host.obj) -> () loc(#loc11)
      %7 = "host.load"() {harp.framework = "tf", harp.kind = "session", harp.kind_status = "proved", name = "sess"} : () -> !host.obj loc(#loc12)
      %8 = "host.getattr"(%7) {attr = "run", qualname = "tensorflow.compat.v1.Session.run"} : (!host.obj) -> !host.obj loc(#loc13)
      %9 = "host.load"() {name = "acc"} : () -> !host.obj loc(#loc14)
      %10 = "host.call"(%8, %9) {effect = "run", harp.receiver = "sess", kwnames = [""], method = "run", qualname = "tensorflow.compat.v1.Session.run"} : (!host.obj, !host.obj) -> !host.obj loc(#loc15)
      %11 = "host.load"() {harp.framework = "tf", harp.kind = "session", harp.kind_status = "proved", name = "sess"} : () -> !host.obj loc(#loc16)
      %12 = "host.getattr"(%11) {attr = "run", qualname = "tensorflow.compat.v1.Session.run"} : (!host.obj) -> !host.obj loc(#loc17)
      %13 = "host.load"() {name = "loss"} : () -> !host.obj loc(#loc18)
      %14 = "host.call"(%12, %13) {effect = "run", harp.receiver = "sess", kwnames = [""], method = "run", qualname = "tensorflow.compat.v1.Session.run"} : (!host.obj, !host.obj) -> !host.obj loc(#loc19)
      "hostcf.yield"() : () -> () loc(#loc20)
    }, {
      "hostcf.yield"() : () -> () loc(#loc1)
    }) {harp.mutates = ["step"], harp.mutates_status = "speculated", target = "step"} : (!host.obj) -> () loc(#loc10)
    "hostcf.yield"() : () -> () loc(#loc1)
  }) {filename = "harp-split-session-runs.py", sym_name = "harp-split-session-runs"} : () -> () loc(#loc1)
} loc(#loc)
#loc = loc("harp-split-session-runs.py":1:1)
#loc1 = loc("harp-split-session-runs.py":1:1 to 6:1)
#loc2 = loc("harp-split-session-runs.py":1:8 to :34)
#loc3 = loc("harp-split-session-runs.py":2:8 to :10)
#loc4 = loc("harp-split-session-runs.py":2:8 to :18)
#loc5 = loc("harp-split-session-runs.py":2:8 to :20)
#loc6 = loc("harp-split-session-runs.py":2:1 to :5)
#loc7 = loc("harp-split-session-runs.py":3:13 to :18)
#loc8 = loc("harp-split-session-runs.py":3:19 to :20)
#loc9 = loc("harp-split-session-runs.py":3:13 to :21)
#loc11 = loc("harp-split-session-runs.py":3:5 to :9)
#loc12 = loc("harp-split-session-runs.py":4:5 to :9)
#loc13 = loc("harp-split-session-runs.py":4:5 to :13)
#loc14 = loc("harp-split-session-runs.py":4:14 to :19)
#loc15 = loc("harp-split-session-runs.py":4:5 to :20)
#loc16 = loc("harp-split-session-runs.py":5:5 to :9)
#loc17 = loc("harp-split-session-runs.py":5:5 to :13)
#loc18 = loc("harp-split-session-runs.py":5:14 to :18)
#loc19 = loc("harp-split-session-runs.py":5:5 to :19)
#loc20 = loc("harp-split-session-runs.py":4:5 to 5:19)
