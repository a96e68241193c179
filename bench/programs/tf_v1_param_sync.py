"""Parameter averaging in TensorFlow 1 style: replicas update host copies of the weights,
which are pushed into the graph with `tf.assign` before the loss is evaluated."""

import os

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
SCALE = float(os.environ.get("HARP_BENCH_SCALE", "1"))
rng = np.random.default_rng(11)
X = rng.normal(size=(256, 32)).astype(np.float32)
Y = rng.normal(size=(256, 4)).astype(np.float32)

weights = tf.Variable(tf.zeros([32, 4]))
loss = tf.reduce_mean(tf.square(tf.matmul(tf.constant(X), weights) - tf.constant(Y)))
replicas = [rng.normal(scale=0.1, size=(32, 4)).astype(np.float32) for _ in range(4)]
sess = tf.Session()
sess.run(tf.global_variables_initializer())
losses = []
for round_ in range(int(400 * SCALE)):
    replicas = [r - 0.01 * rng.normal(size=r.shape).astype(np.float32) for r in replicas]
    averaged = np.mean(replicas, axis=0)
    sess.run(tf.assign(weights, averaged))
    losses.append(sess.run(loss))
print(f"first {losses[0]:.5f} last {losses[-1]:.5f} mean {np.mean(losses):.5f}")
