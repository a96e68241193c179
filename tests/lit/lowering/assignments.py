# RUN: %harp import %s --no-debuginfo | FileCheck %s

a = 1
# CHECK: %[[C:.*]] = "host.constant"() {kind = "int", value = 1 : i64}
# CHECK-NEXT: "host.store"(%[[C]]) {name = "a"}
b = c = a
# CHECK: %[[A:.*]] = "host.load"() {{{.*}}name = "a"}
# CHECK-NEXT: "host.store"(%[[A]]) {name = "b"}
# CHECK-NEXT: "host.store"(%[[A]]) {name = "c"}
a += 2
# CHECK: %[[OLD:.*]] = "host.load"() {{{.*}}name = "a"}
# CHECK: %[[NEW:.*]] = "host.binop"(%[[OLD]], %{{.*}}) {inplace = true, op = "add"}
# CHECK-NEXT: "host.store"(%[[NEW]]) {name = "a"}
first, *rest = [1, 2, 3]
# CHECK: "host.list"
# CHECK: %[[U:.*]]:2 = "host.unpack"(%{{.*}}) {starred = 1 : i64}
# CHECK-NEXT: "host.store"(%[[U]]#0) {name = "first"}
# CHECK-NEXT: "host.store"(%[[U]]#1) {name = "rest"}
obj.field = a
# CHECK: "host.setattr"(%{{.*}}, %{{.*}}) {attr = "field"}
table[0] = a
# CHECK: "host.setitem"
n: int = 5
# CHECK: "host.store"(%{{.*}}) {name = "n"}
del a
# CHECK: "host.delete"() {name = "a"}
