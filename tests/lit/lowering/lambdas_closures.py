# RUN: %harp import %s --no-debuginfo | FileCheck %s

scale = lambda v, k=2: v * k
# CHECK: %[[K:.*]] = "host.constant"() {kind = "int", value = 2 : i64}
# CHECK-NEXT: "host.func"(%[[K]]) ({
# CHECK: "hostcf.return"
# CHECK: sym_name = "<lambda>"

def counter():
    count = 0
    def bump():
        nonlocal count
        count += 1
        return count
    return bump
# CHECK: "host.load"() {{{.*}}name = "count", scope = "nonlocal"}
# CHECK: "host.store"(%{{.*}}) {name = "count", scope = "nonlocal"}
# CHECK: harp.effects = ["mutates-globals"], sym_name = "bump"
# The outer function only creates bump: it stays pure.
# CHECK: harp.effects = ["pure"], sym_name = "counter"
