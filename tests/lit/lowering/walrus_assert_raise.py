# RUN: %harp import %s --no-debuginfo | FileCheck %s

if (n := len(items)) > 10:
    pass
# CHECK: %[[LEN:.*]] = "host.call"{{.*}}qualname = "builtins.len"
# CHECK-NEXT: "host.store"(%[[LEN]]) {name = "n"}
# CHECK-NEXT: %{{.*}} = "host.constant"() {kind = "int", value = 10 : i64}
# CHECK-NEXT: "host.compare"(%[[LEN]]
# CHECK: "host.if"

assert n > 0, "empty"
# CHECK: %[[T:.*]] = "host.truth"
# CHECK-NEXT: %[[M:.*]] = "host.constant"() {kind = "str", value = "empty"}
# CHECK-NEXT: "host.assert"(%[[T]], %[[M]])

def check(x):
    if x is None:
        raise ValueError("x") from None
    return x
# CHECK: %[[EXC:.*]] = "host.call"
# CHECK-NEXT: %[[CAUSE:.*]] = "host.constant"() {kind = "none", value}
# CHECK-NEXT: "hostcf.raise"(%[[EXC]], %[[CAUSE]])
