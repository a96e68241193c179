# RUN: %harp import %s --no-debuginfo | FileCheck %s
# Facts are proved where the code shows them and speculated, with the reason, where not.

import torch

x = torch.randn(3)
# CHECK: "host.call"{{.*}}harp.kind = "tensor", harp.kind_status = "proved"{{.*}}qualname = "torch.randn"
y = x * 2 + 1
# CHECK: "host.binop"{{.*}}harp.kind = "tensor", harp.kind_status = "proved"

def make(n):
    return torch.zeros(n)

z = make(4)
# Return facts flow out of user functions; summaries flow into the call's effect.
# CHECK: "host.call"{{.*}}effect = "pure", harp.framework = "torch", harp.kind = "tensor", harp.kind_reason = "make returns a tensor", harp.kind_status = "proved"

def tail(batch):
    return batch.cpu()
# CHECK: harp.receiver_reason = "`batch` is assumed to be a torch tensor because `.cpu()` is torch.Tensor.cpu"

def log_it(v):
    print(v)

def grow(items, v):
    items.append(v)

# CHECK: harp.effects = ["io"], sym_name = "log_it"
# CHECK: harp.effects = ["mutates-argument"], sym_name = "grow"
log_it(z)
# CHECK: {effect = "io", kwnames = [""]}
grow([], z)
# CHECK: {effect = "mutate", kwnames = ["", ""]}
