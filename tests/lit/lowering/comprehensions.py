# RUN: %harp import %s --no-debuginfo | FileCheck %s
# Comprehensions are the loops they are, so loop analyses see into them.

squares = [t.item() for t in ts if t > 0]
# CHECK: %[[C:.*]] = "host.comprehension"() ({
# CHECK-NEXT: %[[TS:.*]] = "host.load"() {name = "ts"}
# CHECK-NEXT: "host.for"(%[[TS]]) ({
# CHECK-NEXT: ^bb0(%[[T:.*]]: !host.obj):
# CHECK-NEXT: "host.store"(%[[T]]) {name = "t"}
# CHECK: "host.if"
# CHECK: %[[ITEM:.*]] = "host.call"{{.*}}effect = "sync"{{.*}}qualname = "torch.Tensor.item"
# CHECK-NEXT: "host.append"(%[[ITEM]])
# CHECK: }) {kind = "list"}
# CHECK-NEXT: "host.store"(%[[C]]) {name = "squares"}

pairs = {k: v for k, v in items}
# CHECK: "host.append"(%{{.*}}, %{{.*}}) : (!host.obj, !host.obj) -> ()
# CHECK: {kind = "dict"}

gen = (x for row in grid for x in row)
# CHECK: "host.for"
# CHECK: "host.for"
# CHECK: "host.append"
# CHECK: {kind = "generator"}
uniq = {x for x in xs}
# CHECK: {kind = "set"}
