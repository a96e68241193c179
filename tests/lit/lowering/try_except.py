# RUN: %harp import %s --no-debuginfo | FileCheck %s

try:
    risky()
except (ValueError, KeyError) as err:
    report(err)
except:
    raise
else:
    ok()
finally:
    cleanup()
# CHECK: "host.try"() ({
# CHECK: {name = "risky"}
# CHECK: }, {
# CHECK: %[[T:.*]] = "host.tuple"
# CHECK-NEXT: "host.except"(%[[T]]) ({
# CHECK-NEXT: ^bb0(%[[E:.*]]: !host.obj):
# CHECK-NEXT: "host.store"(%[[E]]) {name = "err"}
# CHECK: }) {name = "err"}
# CHECK-NEXT: %[[NONE:.*]] = "host.constant"() {kind = "none", value}
# CHECK-NEXT: "host.except"(%[[NONE]]) ({
# CHECK: "hostcf.raise"
# CHECK: }) {name = ""}
# CHECK: }, {
# CHECK: {name = "ok"}
# CHECK: }, {
# CHECK: {name = "cleanup"}
