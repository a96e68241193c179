// RUN: %harp-opt %s --split-input-file --harp-host-sync-in-loop --mlir-print-debuginfo | FileCheck %s

// A sync inside a for loop is reported, naming the tensor and the loop.
"host.module"() ({
  %range = "host.load"() {name = "range", scope = "builtin", qualname = "builtins.range"} : () -> !host.obj
  "host.for"(%range) ({
  ^bb0(%i: !host.obj):
    %t = "host.load"() {name = "loss", harp.kind = "tensor", harp.framework = "torch", harp.kind_status = "proved"} : () -> !host.obj
    %m = "host.getattr"(%t) {attr = "item", qualname = "torch.Tensor.item"} : (!host.obj) -> !host.obj
    // CHECK: "host.call"{{.*}}harp.hints = [{assumptions = [{kind = "tensor", reason = "", risk = "low", status = "proved", subject = "loss"}, {{.*}}kind = "loop-runs"{{.*}}], id = "HARP201", message = "`loss.item()` copies `loss` to the host and waits for the device on every iteration of the `for i` loop (line 3)
    %v = "host.call"(%m) {kwnames = [], method = "item", qualname = "torch.Tensor.item", effect = "sync", harp.receiver = "loss"} : (!host.obj) -> !host.obj loc("train.py":4:5 to :16)
    "hostcf.yield"() : () -> ()
  }, {
    "hostcf.yield"() : () -> ()
  }) {target = "i"} : (!host.obj) -> () loc("train.py":3:1 to 5:1)
  "hostcf.yield"() : () -> ()
}) {sym_name = "in_for", filename = "train.py"} : () -> ()
// CHECK: sym_name = "in_for"

// -----

// A tensor condition of an if inside a while loop is a sync too.
"host.module"() ({
  "host.while"() ({
    %c = "host.load"() {name = "running"} : () -> !host.obj
    %t = "host.truth"(%c) : (!host.obj) -> !host.obj
    "hostcf.condition"(%t) : (!host.obj) -> ()
  }, {
    %d = "host.load"() {name = "diff", harp.kind = "tensor", harp.kind_status = "speculated"} : () -> !host.obj
    // CHECK: "host.truth"{{.*}}harp.hints = [{{.*}}reason = "why not", risk = "medium", status = "speculated", subject = "diff"{{.*}}id = "HARP201", message = "the condition `diff` is a tensor: {{.*}}the `while` loop
    %t = "host.truth"(%d) {effect = "sync", harp.receiver = "diff", harp.receiver_reason = "why not"} : (!host.obj) -> !host.obj
    "host.if"(%t) ({
      "hostcf.break"() : () -> ()
    }, {
      "hostcf.yield"() : () -> ()
    }) : (!host.obj) -> ()
    "hostcf.yield"() : () -> ()
  }, {
    "hostcf.yield"() : () -> ()
  }) : () -> ()
  "hostcf.yield"() : () -> ()
}) {sym_name = "in_while", filename = "train.py"} : () -> ()
// CHECK: sym_name = "in_while"

// -----

// Near misses: a sync outside any loop, and a sync in a function defined inside a loop
// (the loop defines the function; it does not run its body) are not reported.
// CHECK-NOT: harp.hints
"host.module"() ({
  %t = "host.load"() {name = "loss"} : () -> !host.obj
  %m = "host.getattr"(%t) {attr = "item"} : (!host.obj) -> !host.obj
  %v = "host.call"(%m) {kwnames = [], effect = "sync"} : (!host.obj) -> !host.obj
  %range = "host.load"() {name = "range"} : () -> !host.obj
  "host.for"(%range) ({
  ^bb0(%i: !host.obj):
    %f = "host.func"() ({
      %t2 = "host.load"() {name = "loss"} : () -> !host.obj
      %v2 = "host.call"(%t2) {kwnames = [], effect = "sync"} : (!host.obj) -> !host.obj
      "hostcf.return"(%v2) : (!host.obj) -> ()
    }) {sym_name = "f", arg_names = [], arg_kinds = []} : () -> !host.obj
    %p = "host.call"(%range) {kwnames = [], effect = "pure"} : (!host.obj) -> !host.obj
    "hostcf.yield"() : () -> ()
  }, {
    "hostcf.yield"() : () -> ()
  }) {target = "i"} : (!host.obj) -> ()
  "hostcf.yield"() : () -> ()
}) {sym_name = "negatives", filename = "train.py"} : () -> ()
// CHECK: sym_name = "negatives"
