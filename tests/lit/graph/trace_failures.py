# A trace that fails is a diagnostic naming the entry; the static module is still printed.
# RUN: %expect-exit 1 %harp import --no-debuginfo %S/../Inputs/trace/cnn.py --trace %S/../Inputs/trace/failing_trace.toml > %t.mlir 2> %t.err
# RUN: FileCheck %s --check-prefix=ERR < %t.err
# RUN: FileCheck %s --check-prefix=MOD < %t.mlir
# ERR: cnn.py:Missing: error: ValueError: cnn.py defines no `Missing`
# ERR: cnn.py:Net: error: TypeError: Net.__init__() missing 1 required positional argument: 'classes'
# MOD: "host.module"
# MOD-NOT: func.func
# RUN: %expect-exit 1 %harp import --no-debuginfo %S/../Inputs/trace/slow.py --trace %S/../Inputs/trace/slow_trace.toml 2>&1 >/dev/null | FileCheck %s --check-prefix=SLOW
# SLOW: slow.py:Model: error: tracing timed out after 3 s
# RUN: %expect-exit 1 %harp import --no-debuginfo %S/../Inputs/trace/cnn.py --trace %S/../Inputs/trace/cnn.py 2>&1 >/dev/null | FileCheck %s --check-prefix=SPEC
# SPEC: cnn.py: error: cannot read the trace spec
