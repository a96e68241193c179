# RUN: %harp import %s --no-debuginfo | FileCheck %s

import torch

f(1, 2, key=3, *args, **kwargs)
# CHECK: %[[F:.*]] = "host.load"() {name = "f"}
# CHECK: "host.call"(%[[F]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {effect = "unknown", kwnames = ["", "", "key", "*", "**"]}
t = torch.zeros(3, dtype=torch.float32)
# CHECK: "host.call"(%{{.*}}, %{{.*}}, %{{.*}}) {effect = "pure", harp.framework = "torch", harp.kind = "tensor", harp.kind_status = "proved", kwnames = ["", "dtype"], method = "zeros", qualname = "torch.zeros"}
v = t.item()
# CHECK: %[[RECV:.*]] = "host.load"() {{{.*}}name = "t"}
# CHECK-NEXT: %[[M:.*]] = "host.getattr"(%[[RECV]]) {attr = "item", qualname = "torch.Tensor.item"}
# CHECK-NEXT: "host.call"(%[[M]]) {effect = "sync", {{.*}}harp.receiver = "t", kwnames = [], method = "item", qualname = "torch.Tensor.item"}
print(len([1]))
# The callee is evaluated before its arguments.
# CHECK: "host.load"() {name = "print", qualname = "builtins.print", scope = "builtin"}
# CHECK: "host.load"() {name = "len", qualname = "builtins.len", scope = "builtin"}
# CHECK: {effect = "io", kwnames = [""], qualname = "builtins.print"}
