# HARP401's fix vectorizes a loop only when every operand read whole is proved to
# broadcast against the whole tensor as against one element: a number, or a tensor of
# fewer dimensions than the one the loop visits. Ranks come from factories, indexing
# (an int drops a dimension, a slice keeps one), `torch.tensor` of displays and `@`.
# RUN: %expect-exit 1 %harp analyze --output-format full %s | FileCheck %s
import torch

n = 64
x = torch.randn(n, 8)
bias = torch.randn(8)
col = x[:, 0]
table = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
pair = torch.zeros((n, 2))
proj = pair @ table

# CHECK: broadcast `bias` (proved, low risk: `bias` has 1 dimension, fewer than the 2 of the tensor the loop visits
out = torch.zeros(n, 8)
for i in range(len(x)):
    out[i] = x[i] * bias
# CHECK: broadcast `scale` (proved, low risk: `scale` has 0 dimensions, fewer than the 1 of the tensor the loop visits
scale = col[3]
res = torch.zeros(n)
for i in range(len(col)):
    res[i] = col[i] * scale
# Near misses: an operand of as many dimensions as the visited tensor; a visited tensor
# of unknown rank.
# CHECK-NOT: broadcast `table`
# CHECK-NOT: broadcast `bias`
more = torch.zeros(n, 2)
for i in range(len(proj)):
    more[i] = proj[i] * table
loaded = torch.load("t.pt")
for i in range(len(loaded)):
    more[i] = loaded[i] * bias
