# RUN: %check-hints %s
import tensorflow as tf
import torch

W = torch.randn(8, 8)
b = torch.randn(8)
V = tf.random.normal([8, 8])
for x in torch.randn(1000, 8):  # expected-hint HARP401
    y = x @ torch.matmul(W, W.t()) + b  # expected-hint HARP301
    scale = torch.norm(W)  # expected-hint HARP301
    z = tf.matmul(V, tf.transpose(V))  # expected-hint HARP301
    h = torch.relu(x)  # depends on the loop variable

# Near misses: an input rewritten in the loop; a result mutated in place; random values.
steps = 1000
for step in range(steps):
    g = torch.matmul(W, W)
    g.add_(1)
    W = W * 0.9
    r = torch.randn(8) + torch.mean(b)  # expected-hint HARP301
    n = torch.relu(torch.randn(8))
# A handful of iterations (a constant range): hoisting saves nothing worth a hint.
for k in range(5):
    print(torch.softmax(b, dim=0)[k])

# A chain of invariant statements (a slot set once per iteration, before its reads, from
# invariant values) is one finding, at its last computation; operators are computations.
P = torch.randn(8, 8)
batches = [torch.randn(8) for _ in range(100)]
for x in batches:
    p_inv = torch.linalg.inv(P)
    gram = p_inv @ p_inv.T / 8  # expected-hint HARP301
    out = x @ gram
    centred = P - P.mean(dim=0)  # expected-hint HARP301
    y = x @ centred

# Near misses: the slot is set under a condition; changed in place; set twice. Set after
# a read, the read before sees the previous iteration's value, the read after is invariant.
for x in batches:
    if x.sum() > 0:
        q = torch.linalg.inv(P)  # expected-hint HARP301
    z = q @ P
for x in batches:
    z = x @ prev
    prev = torch.linalg.inv(P)
    u = prev @ P  # expected-hint HARP301
for x in batches:
    m = P @ P.T
    m.add_(1)
    v = m @ x
for x in batches:
    s = torch.linalg.inv(P)  # expected-hint HARP301
    s = s @ x
    t = s @ P


# In a `tf.function` the Python loop runs when the function is traced: the graph it unrolls
# into is the graph optimizer's (common subexpressions are merged there).
@tf.function
def reshape(x, shape):
    x = tf.convert_to_tensor(x)
    shape = [tf.shape(x)[i] if shape[i] is None else shape[i] for i in range(len(shape))]
    return tf.reshape(x, shape)


for step in range(1000):
    y = reshape(tf.random.normal((2, 3)), [None, 3])


# A view of an invariant tensor (a slice, `.view`, `.transpose`, `.unsqueeze`) runs no
# kernel: making it again each iteration costs microseconds, so only a computation under
# it is worth hoisting (a rollout storage's minibatch generator).
rollout = torch.randn(129, 8, 4)
for rows in batches:
    obs_batch = rollout[:-1].view(-1, 4)[rows.long()]
    steps_first = rollout.transpose(0, 1).unsqueeze(0)
    projected = (rollout @ P[:4, :4]).view(-1, 4)[rows.long()]  # expected-hint HARP301
