# RUN: %harp import %s | FileCheck %s
# Every op carries its source range.

x = foo(1)
# CHECK: "host.load"() {name = "foo"} : () -> !host.obj loc([[FOO:#loc[0-9]+]])
# CHECK: "host.call"({{.*}} loc([[CALL:#loc[0-9]+]])
# CHECK-DAG: [[FOO]] = loc("{{.*}}locations.py":4:5 to :8)
# CHECK-DAG: [[CALL]] = loc("{{.*}}locations.py":4:5 to :11)
