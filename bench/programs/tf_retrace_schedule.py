"""A tf.function training step with a warm-up learning-rate schedule that takes the step
number, as schedules are often written."""

import os

import numpy as np
import tensorflow as tf

SCALE = float(os.environ.get("HARP_BENCH_SCALE", "1"))
tf.random.set_seed(13)
rng = np.random.default_rng(13)
X = tf.constant(rng.normal(size=(256, 16)).astype(np.float32))
Y = tf.constant(rng.normal(size=(256, 1)).astype(np.float32))
w = tf.Variable(tf.zeros([16, 1]))
WARMUP = 50.0


@tf.function
def train_step(x, y, step):
    lr = 0.05 * tf.minimum(1.0, tf.cast(step, tf.float32) / WARMUP)
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - y))
    grad = tape.gradient(loss, w)
    w.assign_sub(lr * grad)
    return loss


for step in range(int(300 * SCALE)):
    loss = train_step(X, Y, step)
print(f"loss {float(loss):.6f}")
