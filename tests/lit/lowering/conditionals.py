# RUN: %harp import %s --no-debuginfo | FileCheck %s

if a:
    x = 1
elif b:
    x = 2
else:
    x = 3
# CHECK: %[[A:.*]] = "host.truth"
# CHECK-NEXT: "host.if"(%[[A]]) ({
# CHECK: value = 1 : i64
# CHECK: }, {
# CHECK-NEXT: "host.load"() {name = "b"}
# CHECK-NEXT: %[[B:.*]] = "host.truth"
# CHECK-NEXT: "host.if"(%[[B]]) ({
# CHECK: value = 2 : i64
# CHECK: }, {
# CHECK: value = 3 : i64
