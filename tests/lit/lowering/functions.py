# RUN: %harp import %s --no-debuginfo | FileCheck %s

import tensorflow as tf

@tf.function
def step(x, y=2, *rest, scale, **options):
    global counter
    counter = counter + 1
    return x * y
# CHECK: %[[DEC:.*]] = "host.getattr"({{.*}}) {attr = "function", qualname = "tensorflow.function"}
# CHECK: %[[FN:.*]] = "host.func"(%{{.*}}) ({
# CHECK-NEXT: ^bb0(%[[X:.*]]: !host.obj, %{{.*}}: !host.obj, %{{.*}}: !host.obj, %{{.*}}: !host.obj, %{{.*}}: !host.obj):
# CHECK-NEXT: "host.store"(%[[X]]) {name = "x"}
# CHECK: "host.load"() {name = "counter", scope = "global"}
# CHECK: "host.store"(%{{.*}}) {name = "counter", scope = "global"}
# CHECK: "hostcf.return"
# CHECK-NEXT: }) {arg_kinds = ["positional", "positional", "vararg", "kwonly", "kwarg"], arg_names = ["x", "y", "rest", "scale", "options"], harp.decorators = ["tensorflow.function"], harp.effects = ["mutates-globals"], sym_name = "step"}
# CHECK-NEXT: %[[D:.*]] = "host.call"(%[[DEC]], %[[FN]]) {harp.decorator, kwnames = [""], qualname = "tensorflow.function"}
# CHECK-NEXT: "host.store"(%[[D]]) {name = "step"}

def no_return():
    pass
# CHECK: "host.func"() ({
# CHECK-NEXT: %[[NONE:.*]] = "host.constant"() {kind = "none", value}
# CHECK-NEXT: "hostcf.return"(%[[NONE]])
# CHECK-NEXT: }) {arg_kinds = [], arg_names = [], harp.effects = ["pure"], sym_name = "no_return"}
