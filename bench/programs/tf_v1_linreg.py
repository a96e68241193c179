"""Linear regression in TensorFlow 1 style (graph and session), with the model built
where it is used: inside the training loop."""

import os

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
SCALE = float(os.environ.get("HARP_BENCH_SCALE", "1"))
rng = np.random.default_rng(10)
X = rng.normal(size=(512, 8)).astype(np.float32)
true_w = rng.normal(size=(8, 1)).astype(np.float32)
Y = X @ true_w + 0.1 * rng.normal(size=(512, 1)).astype(np.float32)

x_ph = tf.placeholder(tf.float32, [None, 8])
y_ph = tf.placeholder(tf.float32, [None, 1])
w = tf.Variable(tf.zeros([8, 1]))
b = tf.Variable(tf.zeros([1]))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(int(120 * SCALE)):
        start = (step * 64) % 512
        batch_x, batch_y = X[start:start + 64], Y[start:start + 64]
        pred = tf.matmul(x_ph, w) + b
        loss = tf.reduce_mean(tf.square(pred - y_ph))
        grad_w, grad_b = tf.gradients(loss, [w, b])
        train = [tf.assign_sub(w, 0.1 * grad_w), tf.assign_sub(b, 0.1 * grad_b)]
        _, loss_value = sess.run([train, loss], {x_ph: batch_x, y_ph: batch_y})
    print(f"loss {loss_value:.6f}")
    print("w", np.round(sess.run(w).ravel(), 4).tolist())
