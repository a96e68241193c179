# RUN: %harp import %s --no-debuginfo | FileCheck %s

for i, x in enumerate(data):
    if x:
        continue
    total = total + x
else:
    done = True
# CHECK: "host.for"(%{{.*}}) ({
# CHECK-NEXT: ^bb0(%[[ARG:.*]]: !host.obj):
# CHECK-NEXT: %[[U:.*]]:2 = "host.unpack"(%[[ARG]]) {starred = -1 : i64}
# CHECK-NEXT: "host.store"(%[[U]]#0) {name = "i"}
# CHECK-NEXT: "host.store"(%[[U]]#1) {name = "x"}
# CHECK: "host.if"
# CHECK-NEXT: "hostcf.continue"() : () -> ()
# CHECK: {name = "total"}
# CHECK: "hostcf.yield"() : () -> ()
# CHECK-NEXT: }, {
# CHECK-NEXT: "host.constant"() {kind = "bool", value = true}
# CHECK-NEXT: "host.store"(%{{.*}}) {name = "done"}
# CHECK-NEXT: "hostcf.yield"() : () -> ()
# The loop records the slots its body writes (aliasing speculated away); `else` runs once.
# CHECK-NEXT: }) {harp.mutates = ["i", "total", "x"], harp.mutates_status = "speculated", target = "i, x"}

while n > 0:
    n -= 1
    if n == 5:
        break
        unreachable()
# CHECK: "host.while"() ({
# CHECK: %[[CMP:.*]] = "host.compare"
# CHECK-NEXT: %[[T:.*]] = "host.truth"(%[[CMP]])
# CHECK-NEXT: "hostcf.condition"(%[[T]])
# CHECK-NEXT: }, {
# CHECK: "hostcf.break"() : () -> ()
# CHECK-NOT: unreachable
# CHECK: }, {
# CHECK-NEXT: "hostcf.yield"() : () -> ()
