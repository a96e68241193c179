// Pass test for --harp-eager-step (HARP103) on the IR harp imports from:
//   import tensorflow as tf
//   for step in range(3):
//       with tf.GradientTape() as tape:
//           loss = tf.reduce_sum(w)
// RUN: %harp-opt %s --harp-eager-step | FileCheck %s
// RUN: %harp-opt %s | FileCheck --check-prefix=NOPASS %s
// NOPASS-NOT: harp.hints
// CHECK: harp.hints = [{{.*}}id = "HARP103", message = "the training step under `tf.GradientTape()` runs eagerly on every iteration of the `for step` loop (line 2)
// CHECK-NOT: id = "HARP103"
#loc6 = loc("harp-eager-step.py":2:1 to 4:32)
#loc11 = loc("harp-eager-step.py":3:5 to 4:32)
module {
  "host.module"() ({
    %0 = "host.import"() {module = "tensorflow", qualname = "tensorflow"} : () -> !host.obj loc(#loc2)
    "host.store"(%0) {name = "tf"} : (!host.obj) -> () loc(#loc2)
    %1 = "host.load"() {name = "range", qualname = "builtins.range", scope = "builtin"} : () -> !host.obj loc(#loc3)
    %2 = "host.constant"() {kind = "int", value = 3 : i64} : () -> !host.obj loc(#loc4)
    %3 = "host.call"(%1, %2) {effect = "pure", kwnames = [""], qualname = "builtins.range"} : (!host.obj, !host.obj) -> !host.obj loc(#loc5)
    "host.for"(%3) ({
    ^bb0(%arg0: !host.obj loc("harp-eager-step.py":2:1 to 4:32)):
      "host.store"(%arg0) {name = "step"} : (!host.obj) -> () loc(#loc7)
      %4 = "host.load"() {name = "tf", qualname = "tensorflow"} : () -> !host.obj loc(#loc8)
      %5 = "host.getattr"(%4) {attr = "GradientTape", qualname = "tensorflow.GradientTape"} : (!host.obj) -> !host.obj loc(#loc9)
      %6 = "host.call"(%5) {effect = "construct", kwnames = [], method = "GradientTape", qualname = "tensorflow.GradientTape"} : (!host.obj) -> !host.obj loc(#loc10)
      "host.with"(%6) ({
      ^bb0(%arg1: !host.obj loc("harp-eager-step.py":3:5 to 4:32)):
        "host.store"(%arg1) {name = "tape"} : (!host.obj) -> () loc(#loc12)
        %7 = "host.load"() {name = "tf", qualname = "tensorflow"} : () -> !host.obj loc(#loc13)
        %8 = "host.getattr"(%7) {attr = "reduce_sum", qualname = "tensorflow.reduce_sum"} : (!host.obj) -> !host.obj loc(#loc14)
        %9 = "host.load"() {name = "w"} : () -> !host.obj loc(#loc15)
        %10 = "host.call"(%8, %9) {effect = "pure", harp.framework = "tf", harp.kind = "tensor", harp.kind_status = "proved", kwnames = [""], method = "reduce_sum", qualname = "tensorflow.reduce_sum"} : (!host.obj, !host.obj) -> !host.obj loc(#loc16)
        "host.store"(%10) {name = "loss"} : (!host.obj) -> () loc(#loc17)
        "hostcf.yield"() : () -> () loc(#loc18)
      }) {harp.contexts = ["tensorflow.GradientTape"]} : (!host.obj) -> () loc(#loc11)
      "hostcf.yield"() : () -> () loc(#loc11)
    }, {
      "hostcf.yield"() : () -> () loc(#loc1)
    }) {harp.mutates = ["loss", "step", "tape"], harp.mutates_status = "speculated", target = "step"} : (!host.obj) -> () loc(#loc6)
    "hostcf.yield"() : () -> () loc(#loc1)
  }) {filename = "harp-eager-step.py", sym_name = "harp-eager-step"} : () -> () loc(#loc1)
} loc(#loc)
#loc = loc("harp-eager-step.py":1:1)
#loc1 = loc("harp-eager-step.py":1:1 to 5:1)
#loc2 = loc("harp-eager-step.py":1:8 to :24)
#loc3 = loc("harp-eager-step.py":2:13 to :18)
#loc4 = loc("harp-eager-step.py":2:19 to :20)
#loc5 = loc("harp-eager-step.py":2:13 to :21)
#loc7 = loc("harp-eager-step.py":2:5 to :9)
#loc8 = loc("harp-eager-step.py":3:10 to :12)
#loc9 = loc("harp-eager-step.py":3:10 to :25)
#loc10 = loc("harp-eager-step.py":3:10 to :27)
#loc12 = loc("harp-eager-step.py":3:31 to :35)
#loc13 = loc("harp-eager-step.py":4:16 to :18)
#loc14 = loc("harp-eager-step.py":4:16 to :29)
#loc15 = loc("harp-eager-step.py":4:30 to :31)
#loc16 = loc("harp-eager-step.py":4:16 to :32)
#loc17 = loc("harp-eager-step.py":4:9 to :13)
#loc18 = loc("harp-eager-step.py":4:9 to :32)
