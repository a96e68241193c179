# RUN: %check-hints %s
import tensorflow as tf
import torch
from torch import nn

model = nn.Linear(4, 2)
batch = torch.randn(16, 4)
with torch.no_grad():
    for i in range(len(batch)):
        y = model(batch[i])  # expected-hint HARP403
    for i in range(batch.shape[0]):
        y = model(batch[i:i + 1])  # expected-hint HARP403
    for row in batch:
        y = model(row.unsqueeze(0))  # expected-hint HARP403

net = tf.keras.Sequential([tf.keras.layers.Dense(2)])
images = tf.random.normal([8, 4])
for i in range(images.shape[0]):
    out = net(images[i:i + 1])  # expected-hint HARP403
# A handful of iterations (a constant range): batching saves little.
for i in range(4):
    out = net(images[i:i + 1])

# Near misses: the whole batch at once; a recurrent use where each call feeds the next.
with torch.no_grad():
    y = model(batch)
    h = torch.zeros(1, 4)
    for i in range(16):
        h = model(torch.cat([h[:, :2], batch[i:i + 1, :2]], dim=1))
# A slice of the loop's step is a batch, not one example: `x[i:i + size]` in a loop over
# batch offsets, a slice with a step.
size = 4
with torch.no_grad():
    for i in range(0, len(batch), size):
        y = model(batch[i:i + size])
    for i in range(len(batch)):
        y = model(batch[i:i + 1:2])
