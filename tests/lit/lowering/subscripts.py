# RUN: %harp import %s --no-debuginfo | FileCheck %s

a = x[0]
# CHECK: "host.getitem"(%{{.*}}, %{{.*}})
b = x[1:2]
# CHECK: %[[NONE:.*]] = "host.constant"() {kind = "none", value}
# CHECK: %[[S:.*]] = "host.slice"(%{{.*}}, %{{.*}}, %[[NONE]])
# CHECK-NEXT: "host.getitem"(%{{.*}}, %[[S]])
c = x[:, 0]
# CHECK: "host.slice"
# CHECK: %[[T:.*]] = "host.tuple"
# CHECK-NEXT: "host.getitem"(%{{.*}}, %[[T]])
del x[0]
# CHECK: "host.delitem"
