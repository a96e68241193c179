# RUN: %check-hints %s
# RUN: not %check-hints --level aggressive %s 2>&1 | FileCheck %s
# CHECK: graph_round_trip.py:14: unexpected HARP204
import numpy as np
import tensorflow as tf
import torch

model = torch.nn.Linear(4, 4)
xs = [torch.randn(2, 4) for _ in range(3)]
with torch.no_grad():
    for x in xs:
        a = model(x).numpy()  # torch's .numpy() of a CPU tensor waits for nothing
        b = np.tanh(a) * 2
        t = torch.from_numpy(b)  # aggressive level: nothing crossed from a device
        v = torch.tensor(x.sum().item() + 1.0)  # expected-hint HARP204
    for x in xs:
        a = model(x.cuda()).cpu().numpy()
        t = torch.from_numpy(np.tanh(a) * 2).cuda()  # expected-hint HARP204
for step in range(3):
    h = tf.random.normal([4])
    g = tf.constant(h.numpy() ** 2)  # expected-hint HARP204

# One problem is one hint: the syncs above feed the round trip, so they are not reported
# on their own (their value is used on the host).
# Near misses: the computation stays in tensors; host data that never was a tensor.
with torch.no_grad():
    for x in xs:
        t = torch.tanh(model(x)) * 2
        u = torch.from_numpy(np.random.rand(4))
