# RUN: %harp import %s --no-debuginfo | FileCheck %s

x = 2 * 3 - 1
# CHECK: "host.binop"(%{{.*}}, %{{.*}}) {op = "mul"}
# CHECK: "host.binop"(%{{.*}}, %{{.*}}) {op = "sub"}
y = -x
# CHECK: "host.unop"(%{{.*}}) {op = "neg"}
z = not x
# CHECK: %[[T:.*]] = "host.truth"
# CHECK-NEXT: "host.unop"(%[[T]]) {op = "not"}
w = 0 < x <= 10
# CHECK: "host.compare"(%{{.*}}, %{{.*}}, %{{.*}}) {ops = ["lt", "le"]}
v = x and y or z
# CHECK: "host.boolop"(%{{.*}}, %{{.*}}) {op = "and"}
# CHECK: "host.boolop"(%{{.*}}, %{{.*}}) {op = "or"}
u = x @ y
# CHECK: {op = "matmul"}
s = "text"
# CHECK: "host.constant"() {kind = "str", value = "text"}
f = 1.5
# CHECK: "host.constant"() {kind = "float", value = 1.500000e+00 : f64}
t = True
# CHECK: "host.constant"() {kind = "bool", value = true}
n = None
# CHECK: "host.constant"() {kind = "none", value}
b = b"raw"
# CHECK: "host.constant"() {kind = "bytes", value = "raw"}
big = 2 ** 100
# CHECK: {op = "pow"}
huge = 123456789012345678901234567890
# CHECK: "host.constant"() {kind = "int", value = "123456789012345678901234567890"}
e = ...
# CHECK: "host.constant"() {kind = "ellipsis", value}
r = x if y else z
# CHECK: %[[IF:.*]] = "host.if"(%{{.*}}) ({
# CHECK: "hostcf.yield"(%{{.*}})
# CHECK: }, {
# CHECK: "hostcf.yield"(%{{.*}})
# CHECK: "host.store"(%[[IF]]) {name = "r"}
