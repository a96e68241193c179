# RUN: %check-hints %s
# RUN: not %check-hints --level aggressive %s 2>&1 | FileCheck --check-prefix=AGGRESSIVE %s
# AGGRESSIVE-DAG: per_sample_call.py:26: unexpected HARP403
# AGGRESSIVE-DAG: per_sample_call.py:62: unexpected HARP403
# AGGRESSIVE-DAG: per_sample_call.py:79: unexpected HARP403
import tensorflow as tf
import torch
from torch import nn

model = nn.Linear(4, 2)
batch = torch.randn(64, 4)
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

# One step along another axis per iteration, over a sequence known to be long: a
# sub-model called per time step.
SEQ_LEN = 128
emb = nn.Embedding(100, 8)
proj = nn.Linear(8, 8)
tokens = torch.randint(0, 100, (4, SEQ_LEN))
feats = torch.randn(4, SEQ_LEN, 8)
with torch.no_grad():
    embedded = [emb(tokens[:, t]) for t in range(SEQ_LEN)]  # expected-hint HARP403
    ys = []
    for t in range(SEQ_LEN):
        ys.append(proj(feats[:, t, :]))  # expected-hint HARP403
    for t in range(0, SEQ_LEN):
        ys.append(proj(feats[:, t:t + 1]))  # expected-hint HARP403
dense = tf.keras.layers.Dense(3)
sequence = tf.random.normal([2, 64, 4])
steps = [dense(sequence[:, t]) for t in range(64)]  # expected-hint HARP403
# A length the program does not state (a few steps are cheap): aggressive level only.
with torch.no_grad():
    ys = [proj(feats[:, t]) for t in range(feats.size(1))]

# Near misses: a cell that carries its state from step to step; a step's input that
# mixes in the previous output.
cell = nn.GRUCell(8, 8)
with torch.no_grad():
    h = torch.zeros(4, 8)
    for t in range(SEQ_LEN):
        h = cell(feats[:, t], h)
    y = torch.zeros(4, 8)
    for t in range(SEQ_LEN):
        y = proj(feats[:, t] + y)
# A loop that animates a plot waits 50 ms per step: the calls' overhead is lost in it.
import matplotlib.pyplot as plt  # noqa: E402

with torch.no_grad():
    for t in range(SEQ_LEN):
        plt.plot(proj(feats[:, t]).sum(1))
        plt.pause(0.05)

# Near misses: a sampler hands out lists of indices (`x[index]` is a minibatch); a loop that
# trains, whose calls each see the weights the previous update left.
from torch.utils.data import BatchSampler, SubsetRandomSampler  # noqa: E402

opt = torch.optim.SGD(model.parameters(), lr=0.1)
for _ in range(10):
    for index in BatchSampler(SubsetRandomSampler(range(len(batch))), 4, False):
        loss = model(batch[index]).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
for i in range(len(batch)):
    loss = model(batch[i]).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
with torch.no_grad():
    for n, row in enumerate(batch):
        y = model(batch[n])  # expected-hint HARP403

# Near miss: each call's own gradient is taken in the loop (MAML's per-task fast weights):
# one batched call would give one gradient for all the tasks.
tasks = torch.randn(32, 16, 4)
for i in range(tasks.shape[0]):
    task_loss = model(tasks[i]).pow(2).mean()
    grads = torch.autograd.grad(task_loss, list(model.parameters()))
    print(sum(g.norm() for g in grads))
