# RUN: %check-hints %s
import tensorflow as tf
import torch

W = torch.randn(8, 8)
b = torch.randn(8)
V = tf.random.normal([8, 8])
for x in torch.randn(10, 8):  # expected-hint HARP401
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
