# RUN: %check-hints %s
import tensorflow as tf
import torch

x, w = torch.randn(4, 4), torch.randn(4, 4)
a = torch.matmul(x, w)
b = torch.matmul(x, w) + 1  # expected-hint HARP302
c = torch.cdist(x, w)
d = torch.cdist(x, w) * 2  # expected-hint HARP302
p, q = tf.ones([2, 2]), tf.ones([2, 2])
r = tf.matmul(p, q)
s = tf.matmul(p, q)  # expected-hint HARP302

# Near misses: an input rewritten in between; random computations; different arguments.
x = x * 2
f = torch.matmul(x, w)
g = torch.randn(3)
h = torch.randn(3)
k = torch.matmul(w, x)
# Cheap to recompute: an element-wise op and a view cost about what reading a result does.
m = torch.relu(x.t())
n = torch.relu(x.t())
