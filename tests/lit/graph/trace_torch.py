# --trace on a small CNN: its forward as a func.func of torch ops, linked to `model(batch)`.
# RUN: %harp import --no-debuginfo %S/../Inputs/trace/cnn.py --trace %S/../Inputs/trace/cnn_trace.toml | FileCheck %s
# CHECK: "host.for"
# CHECK: "host.call"({{.*}}harp.graph = @Net, harp.graph_flops = 14500 : i64, harp.graph_in_loop, harp.graph_op_count = 12 : i64, harp.graph_pure = true
# CHECK: func.func private @Net(%arg0: !torch.vtensor<[2,1,8,8],f32>) -> !torch.vtensor<[2,10],f32> attributes {harp.flops = 14500 : i64, harp.op_count = 12 : i64, harp.op_kinds = {{{.*}}torch.aten.convolution = 1 : i64{{.*}}torch.aten.mm = 1 : i64{{.*}}}, harp.pure = true}
# CHECK: torch.aten.convolution
# CHECK: torch.aten.relu
