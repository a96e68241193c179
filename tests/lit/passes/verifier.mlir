// The Python verifiers reject what IRDL cannot express, with the op's location.
// RUN: not %harp-opt %s --split-input-file 2>&1 | FileCheck %s

// CHECK: bad.py:1:1: error: 'host.call' op has 1 arguments but 2 kwnames
%f = "host.load"() {name = "f"} : () -> !host.obj
%x = "host.call"(%f, %f) {kwnames = ["", "k"]} : (!host.obj, !host.obj) -> !host.obj loc("bad.py":1:1)

// -----

// CHECK: bad.py:2:1: error: 'hostcf.break' op 'hostcf.break' outside a loop
"host.module"() ({
  "hostcf.break"() : () -> () loc("bad.py":2:1)
}) {sym_name = "m", filename = "bad.py"} : () -> ()

// -----

// CHECK: bad.py:3:1: error: 'host.call' op unknown effect 'fast'
%f = "host.load"() {name = "f"} : () -> !host.obj
%x = "host.call"(%f) {kwnames = [], effect = "fast"} : (!host.obj) -> !host.obj loc("bad.py":3:1)

// -----

// CHECK: bad.py:4:1: error: 'host.while' op cond region must end with hostcf.condition
"host.while"() ({
  "hostcf.yield"() : () -> ()
}, {
  "hostcf.yield"() : () -> ()
}, {
  "hostcf.yield"() : () -> ()
}) : () -> () loc("bad.py":4:1)

// -----

// IRDL checks the structure: every host operand is a !host.obj.
// CHECK: verifier.mlir:37:1: error: expected base type 'host.obj' but got 'builtin.integer'
%c = arith.constant 1 : i64
"host.store"(%c) {name = "x"} : (i64) -> ()

// -----

// A missing required attribute.
// CHECK: error: {{.*}}'host.load'{{.*}}name
%v = "host.load"() : () -> !host.obj

// -----

// CHECK: bad.py:7:1: error: 'hostcf.return' op 'hostcf.return' outside a function
"host.module"() ({
  %v = "host.load"() {name = "v"} : () -> !host.obj
  "hostcf.return"(%v) : (!host.obj) -> () loc("bad.py":7:1)
}) {sym_name = "m", filename = "bad.py"} : () -> ()

// -----

// Ill-typed attributes are errors here, not crashes in the passes that read them.
// CHECK: bad.py:4:1: error: 'host.load' op attribute 'qualname' must be a string attribute, not 7 : i64
%t = "host.load"() {name = "torch", qualname = 7 : i64} : () -> !host.obj loc("bad.py":4:1)

// -----

// CHECK: bad.py:5:1: error: 'host.call' op attribute 'harp.receiver' must be a string attribute
%f = "host.load"() {name = "f"} : () -> !host.obj
%x = "host.call"(%f) {kwnames = [], "harp.receiver" = [1]} : (!host.obj) -> !host.obj loc("bad.py":5:1)

// -----

// A string that is not UTF-8 would raise in every pass that reads it.
// CHECK: bad.py:6:1: error: 'host.import' op attribute 'qualname' holds a string that is not valid UTF-8
%t = "host.import"() {module = "torch", qualname = "\FF\FE"} : () -> !host.obj loc("bad.py":6:1)

// -----

// CHECK: bad.py:7:1: error: 'host.call' op attribute 'harp.compiled' must be a string attribute, not 7 : i64
%f = "host.load"() {name = "f"} : () -> !host.obj
%x = "host.call"(%f) {kwnames = [], "harp.compiled" = 7} : (!host.obj) -> !host.obj loc("bad.py":7:1)

// -----

// CHECK: bad.py:8:1: error: 'host.for' op attribute 'harp.mutates' must be an array of strings attribute, not [7]
%r = "host.load"() {name = "r"} : () -> !host.obj
"host.for"(%r) ({
^bb0(%i: !host.obj):
  "hostcf.continue"() : () -> ()
}, {
  "hostcf.yield"() : () -> ()
}) {target = "i", "harp.mutates" = [7]} : (!host.obj) -> () loc("bad.py":8:1)
