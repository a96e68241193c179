# RUN: %harp import %s --no-debuginfo | FileCheck %s

import torch

with torch.no_grad(), open("f") as fh:
    y = fh.read()
# CHECK: %[[NG:.*]] = "host.call"{{.*}}qualname = "torch.no_grad"
# CHECK: %[[OPEN:.*]] = "host.call"{{.*}}qualname = "builtins.open"
# CHECK: "host.with"(%[[NG]], %[[OPEN]]) ({
# CHECK-NEXT: ^bb0(%{{.*}}: !host.obj, %[[FH:.*]]: !host.obj):
# CHECK-NEXT: "host.store"(%[[FH]]) {name = "fh"}
