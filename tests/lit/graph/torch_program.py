# A PyTorch program as one module: host ops, boundary ops and torch dialect ops, verified.
# RUN: %harp import --graph --no-debuginfo %s | FileCheck %s
# RUN: %harp-opt %s --pass-pipeline='builtin.module(harp-lower-graph,canonicalize,cse)' | FileCheck %s --check-prefix=OPT
import torch

x = torch.zeros(4, 3)
# CHECK: %[[SIZES:.*]] = torch.prim.ListConstruct %{{.*}}, %{{.*}} : (!torch.int, !torch.int) -> !torch.list<int>
# CHECK: %[[X:.*]] = torch.aten.zeros %[[SIZES]], {{.*}} {harp.qualname = "torch.zeros"} {{.*}} -> !torch.vtensor<[4,3],f32>
# CHECK: %[[XH:.*]] = "host.from_graph"(%[[X]]) {effect = "pure", framework = "torch", {{.*}}harp.kind = "tensor"
# CHECK-NEXT: "host.store"(%[[XH]]) {name = "x"}
w = torch.ones(3, 2)
for step in range(3):
    # CHECK: "host.for"
    h = torch.relu(x @ w + 1.0)
    # CHECK: %[[A:.*]] = "host.to_graph"(%{{.*}}) {framework = "torch"} : (!host.obj) -> !torch.vtensor
    # CHECK: %[[B:.*]] = "host.to_graph"(%{{.*}}) {framework = "torch"} : (!host.obj) -> !torch.vtensor
    # CHECK: %[[MM:.*]] = torch.aten.matmul %[[A]], %[[B]] {harp.qualname = "operator.matmul"}
    # CHECK: %[[ONE:.*]] = torch.constant.float 1.0
    # CHECK: %[[ADD:.*]] = torch.aten.add.Scalar %[[MM]], %[[ONE]], %{{.*}} {harp.qualname = "operator.add"}
    # CHECK-NEXT: %[[RELU:.*]] = torch.aten.relu %[[ADD]] {harp.qualname = "torch.relu"} : !torch.vtensor -> !torch.vtensor
    # CHECK-NEXT: "host.from_graph"(%[[RELU]])
    y = torch.softmax(h, dim=1).sum()
    # CHECK: %[[SM:.*]] = torch.aten.softmax.int %{{.*}}, %{{.*}}, %{{.*}} {harp.qualname = "torch.softmax"}
    # CHECK: torch.aten.sum %[[SM]], %{{.*}} {harp.qualname = "torch.Tensor.sum"}
    total = y.item()
    # A sync stays a host call: only graph computations lower.
    # CHECK: "host.call"({{.*}}qualname = "torch.Tensor.item"
    z = torch.softmax(h, dim=step)
    # A dimension that is not a constant does not fit the op: the call stays.
    # CHECK: "host.call"({{.*}}qualname = "torch.softmax"

# After canonicalize and cse the constants are shared by the whole module.
# OPT-COUNT-1: torch.constant.none
# OPT: torch.aten.matmul
