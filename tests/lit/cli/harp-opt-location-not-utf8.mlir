// A file name that is not UTF-8 (the bindings abort the process on reading one) is an
// error naming the input; the next chunk is still processed.
// RUN: not %harp-opt --split-input-file %s --harp-host-sync-in-loop 2>&1 | FileCheck %s

// CHECK: harp-opt-location-not-utf8.mlir: error: the location of a 'host.load' op names a file that is not valid UTF-8: loc("\FF.py":2:1)
%t = "host.load"() {name = "x"} : () -> !host.obj loc("\FF.py":2:1)

// -----

// CHECK: module {
// CHECK: "host.load"() {name = "y"}
%u = "host.load"() {name = "y"} : () -> !host.obj loc("ok.py":3:1)
