// Pass test for --harp-retracing (HARP102) on the IR harp imports from:
//   import tensorflow as tf
//   @tf.function
//   def f(x, k):
//       return x * k
//   for i in range(3):
//       f(x, i)
//       f(x, tf.constant(i))
// RUN: %harp-opt %s --harp-retracing | FileCheck %s
// RUN: %harp-opt %s | FileCheck --check-prefix=NOPASS %s
// NOPASS-NOT: harp.hints
// CHECK: harp.hints = [{{.*}}id = "HARP102", message = "the tf.function is called with the Python value `i`, which changes on every iteration of the `for i` loop (line 5)
// CHECK-NOT: id = "HARP102"
#loc5 = loc("harp-retracing.py":3:1 to 4:17)
#loc17 = loc("harp-retracing.py":5:1 to 7:25)
module {
  "host.module"() ({
    %0 = "host.import"() {module = "tensorflow", qualname = "tensorflow"} : () -> !host.obj loc(#loc2)
    "host.store"(%0) {name = "tf"} : (!host.obj) -> () loc(#loc2)
    %1 = "host.load"() {name = "tf", qualname = "tensorflow"} : () -> !host.obj loc(#loc3)
    %2 = "host.getattr"(%1) {attr = "function", qualname = "tensorflow.function"} : (!host.obj) -> !host.obj loc(#loc4)
    %3 = "host.func"() ({
    ^bb0(%arg0: !host.obj loc("harp-retracing.py":3:1 to 4:17), %arg1: !host.obj loc("harp-retracing.py":3:1 to 4:17)):
      "host.store"(%arg0) {name = "x"} : (!host.obj) -> () loc(#loc6)
      "host.store"(%arg1) {name = "k"} : (!host.obj) -> () loc(#loc7)
      %8 = "host.load"() {name = "x"} : () -> !host.obj loc(#loc8)
      %9 = "host.load"() {name = "k"} : () -> !host.obj loc(#loc9)
      %10 = "host.binop"(%8, %9) {op = "mul"} : (!host.obj, !host.obj) -> !host.obj loc(#loc10)
      "hostcf.return"(%10) : (!host.obj) -> () loc(#loc11)
    }) {arg_kinds = ["positional", "positional"], arg_names = ["x", "k"], harp.decorators = ["tensorflow.function"], harp.effects = ["pure"], sym_name = "f"} : () -> !host.obj loc(#loc5)
    %4 = "host.call"(%2, %3) {harp.decorator, kwnames = [""], qualname = "tensorflow.function"} : (!host.obj, !host.obj) -> !host.obj loc(#loc12)
    "host.store"(%4) {name = "f"} : (!host.obj) -> () loc(#loc13)
    %5 = "host.load"() {name = "range", qualname = "builtins.range", scope = "builtin"} : () -> !host.obj loc(#loc14)
    %6 = "host.constant"() {kind = "int", value = 3 : i64} : () -> !host.obj loc(#loc15)
    %7 = "host.call"(%5, %6) {effect = "pure", kwnames = [""], qualname = "builtins.range"} : (!host.obj, !host.obj) -> !host.obj loc(#loc16)
    "host.for"(%7) ({
    ^bb0(%arg0: !host.obj loc("harp-retracing.py":5:1 to 7:25)):
      "host.store"(%arg0) {name = "i"} : (!host.obj) -> () loc(#loc18)
      %8 = "host.load"() {name = "f"} : () -> !host.obj loc(#loc19)
      %9 = "host.load"() {name = "x"} : () -> !host.obj loc(#loc20)
      %10 = "host.load"() {name = "i"} : () -> !host.obj loc(#loc21)
      %11 = "host.call"(%8, %9, %10) {effect = "pure", harp.compiled = "tensorflow.function", kwnames = ["", ""]} : (!host.obj, !host.obj, !host.obj) -> !host.obj loc(#loc22)
      %12 = "host.load"() {name = "f"} : () -> !host.obj loc(#loc23)
      %13 = "host.load"() {name = "x"} : () -> !host.obj loc(#loc24)
      %14 = "host.load"() {name = "tf", qualname = "tensorflow"} : () -> !host.obj loc(#loc25)
      %15 = "host.getattr"(%14) {attr = "constant", qualname = "tensorflow.constant"} : (!host.obj) -> !host.obj loc(#loc26)
      %16 = "host.load"() {name = "i"} : () -> !host.obj loc(#loc27)
      %17 = "host.call"(%15, %16) {effect = "transfer", harp.framework = "tf", harp.kind = "tensor", harp.kind_status = "proved", kwnames = [""], method = "constant", qualname = "tensorflow.constant"} : (!host.obj, !host.obj) -> !host.obj loc(#loc28)
      %18 = "host.call"(%12, %13, %17) {effect = "pure", harp.compiled = "tensorflow.function", kwnames = ["", ""]} : (!host.obj, !host.obj, !host.obj) -> !host.obj loc(#loc29)
      "hostcf.yield"() : () -> () loc(#loc30)
    }, {
      "hostcf.yield"() : () -> () loc(#loc1)
    }) {harp.mutates = ["i"], harp.mutates_status = "speculated", target = "i"} : (!host.obj) -> () loc(#loc17)
    "hostcf.yield"() : () -> () loc(#loc1)
  }) {filename = "harp-retracing.py", sym_name = "harp-retracing"} : () -> () loc(#loc1)
} loc(#loc)
#loc = loc("harp-retracing.py":1:1)
#loc1 = loc("harp-retracing.py":1:1 to 8:1)
#loc2 = loc("harp-retracing.py":1:8 to :24)
#loc3 = loc("harp-retracing.py":2:2 to :4)
#loc4 = loc("harp-retracing.py":2:2 to :13)
#loc6 = loc("harp-retracing.py":3:7 to :8)
#loc7 = loc("harp-retracing.py":3:10 to :11)
#loc8 = loc("harp-retracing.py":4:12 to :13)
#loc9 = loc("harp-retracing.py":4:16 to :17)
#loc10 = loc("harp-retracing.py":4:12 to :17)
#loc11 = loc("harp-retracing.py":4:5 to :17)
#loc12 = loc("harp-retracing.py":2:1 to :13)
#loc13 = loc("harp-retracing.py":3:5 to :6)
#loc14 = loc("harp-retracing.py":5:10 to :15)
#loc15 = loc("harp-retracing.py":5:16 to :17)
#loc16 = loc("harp-retracing.py":5:10 to :18)
#loc18 = loc("harp-retracing.py":5:5 to :6)
#loc19 = loc("harp-retracing.py":6:5 to :6)
#loc20 = loc("harp-retracing.py":6:7 to :8)
#loc21 = loc("harp-retracing.py":6:10 to :11)
#loc22 = loc("harp-retracing.py":6:5 to :12)
#loc23 = loc("harp-retracing.py":7:5 to :6)
#loc24 = loc("harp-retracing.py":7:7 to :8)
#loc25 = loc("harp-retracing.py":7:10 to :12)
#loc26 = loc("harp-retracing.py":7:10 to :21)
#loc27 = loc("harp-retracing.py":7:22 to :23)
#loc28 = loc("harp-retracing.py":7:10 to :24)
#loc29 = loc("harp-retracing.py":7:5 to :25)
#loc30 = loc("harp-retracing.py":6:5 to 7:25)
