# RUN: %check-hints %s
import numpy as np
import tensorflow as tf
import torch

outputs = torch.empty(0, 4)
stacked = np.zeros((0, 4))
acc = tf.zeros([0, 4])
for i in range(1000):
    row = torch.randn(1, 4)
    outputs = torch.cat([outputs, row])  # expected-hint HARP402
    stacked = np.concatenate([stacked, np.ones((1, 4))])  # expected-hint HARP402
    acc = tf.concat([acc, tf.ones([1, 4])], axis=0)  # expected-hint HARP402

# Near misses: one concatenation after the loop; a new name each iteration.
parts = []
for i in range(10):
    parts.append(torch.randn(1, 4))
    pair = torch.cat([parts[-1], parts[-1]])  # does not accumulate
result = torch.cat(parts)
# The loop reads the partial result (autoregressive generation, a dense block): every
# iteration needs it whole, so nothing can be deferred.
seq = torch.zeros(1, 1)
for i in range(10):
    nxt = seq[:, -1:] * 2
    seq = torch.cat([seq, nxt], dim=1)


# A few pieces, or a loop that does no model work (preprocessing, run once): the copies
# are small, so only the aggressive level reports them.
few = torch.empty(0, 4)
for i in range(10):
    few = torch.cat([few, torch.randn(1, 4)])


def list_to_batch(items):
    batch = items[0]
    for elem in items[1:]:
        batch = np.append(batch, elem, axis=0)
    return batch
