# RUN: %harp import %s --no-debuginfo | FileCheck %s

t = (1, 2)
# CHECK: "host.tuple"(%{{.*}}, %{{.*}})
l = [1, *t]
# CHECK: %[[S:.*]] = "host.starred"
# CHECK-NEXT: "host.list"(%{{.*}}, %[[S]])
s = {1}
# CHECK: "host.set"(%{{.*}})
d = {"a": 1, **other}
# CHECK: %[[K:.*]] = "host.constant"() {kind = "str", value = "a"}
# CHECK: %[[NONE:.*]] = "host.constant"() {kind = "none", value}
# CHECK: "host.dict"(%[[K]], %{{.*}}, %[[NONE]], %{{.*}})
msg = f"loss {t[0]:.3f} at {s}"
# CHECK: "host.fstring"(%{{.*}}, %{{.*}}) {template = "f\22loss {t[0]:.3f} at {s}\22"}
