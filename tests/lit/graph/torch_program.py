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
    # A dimension the host computes enters the graph with the type the op takes.
    # CHECK: %[[DIM:.*]] = "host.to_graph"(%{{.*}}) {framework = "torch"} : (!host.obj) -> !torch.int
    # CHECK: torch.aten.softmax.int %{{.*}}, %[[DIM]], %{{.*}} {harp.qualname = "torch.softmax"}
    scaled = 2 * h - step
    # A number on the left is the reflected operator (`h.__rmul__(2)`); a host value of
    # unknown kind is passed as a tensor, as PyTorch wraps a number.
    # CHECK: %[[TWO:.*]] = torch.prim.NumToTensor.Scalar %{{.*}} : !torch.int -> !torch.vtensor
    # CHECK: %[[MUL:.*]] = torch.aten.mul.Tensor %{{.*}}, %[[TWO]] {harp.qualname = "operator.mul"}
    # CHECK: %[[STEP:.*]] = "host.to_graph"(%{{.*}}) {framework = "torch"} : (!host.obj) -> !torch.vtensor
    # CHECK: torch.aten.sub.Tensor %[[MUL]], %[[STEP]], %{{.*}} {harp.qualname = "operator.sub"}
    print("h %s" % h)
    # Formatting a string with `%` is not a tensor computation.
    # CHECK: "host.binop"({{.*}}) {op = "mod"}

# After canonicalize and cse the constants are shared by the whole module.
# OPT-COUNT-1: torch.constant.none
# OPT: torch.aten.matmul
