# RUN: %harp import %s --no-debuginfo | FileCheck %s

import torch
from torch import nn

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        return self.fc(x)
# CHECK: %[[BASE:.*]] = "host.getattr"(%{{.*}}) {attr = "Module", qualname = "torch.nn.Module"}
# CHECK: "host.class"(%[[BASE]]) ({
# CHECK: "host.func"
# CHECK: {{.*}}sym_name = "__init__"}
# CHECK: "host.load"() {harp.framework = "torch", harp.kind = "module", harp.kind_reason = "self of a module subclass", harp.kind_status = "proved", name = "self"}
# CHECK: sym_name = "forward"
# CHECK: }) {sym_name = "Net"}

model = Net()
# CHECK: "host.call"(%{{.*}}) {effect = "construct", harp.framework = "torch", harp.kind = "module", harp.kind_reason = "Net subclasses a torch module class", harp.kind_status = "proved", kwnames = []}
out = model(torch.randn(1, 4))
# CHECK: harp.kind = "tensor", harp.kind_reason = "calling model (a torch module) is assumed to return a tensor", harp.kind_status = "speculated"
