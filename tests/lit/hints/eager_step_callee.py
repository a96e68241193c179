# RUN: %check-hints %s
# RUN: not %harp analyze %s | FileCheck %s
# RUN: cp %s %t.py && %harp refactor --apply %t.py 2>&1 | FileCheck --check-prefix=FIX %s
# A tape step in a helper that a loop calls: reported at the tape, naming the function
# and the loop (facts across the call). A helper that draws NumPy noise is still an eager
# step; compiled whole it would draw once, at trace time, so the hint says to compile the
# tape block alone and its fix declines.
# CHECK: `noisy_step` draws with `numpy.random.normal` (line {{[0-9]+}}), which a traced `noisy_step` would draw once
# FIX: .py:32:5: HARP103 not fixed: `noisy_step` draws with `np.random.normal`: traced, it would draw once
import numpy as np
import tensorflow as tf

w = tf.Variable(tf.random.normal([4, 1]))
x = tf.random.normal([16, 4])
opt = tf.keras.optimizers.SGD(0.1)
steps = 200


def run_optimization():
    with tf.GradientTape() as tape:  # expected-hint HARP103
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w)))
    grads = tape.gradient(loss, [w])
    opt.apply_gradients(zip(grads, [w]))


for step in range(steps):
    run_optimization()


def noisy_step():
    noise = np.random.normal(size=[16, 4]).astype(np.float32)
    with tf.GradientTape() as tape:  # expected-hint HARP103
        loss = tf.reduce_mean(tf.square(tf.matmul(x + noise, w)))
    opt.apply_gradients(zip(tape.gradient(loss, [w]), [w]))


# Near misses: the helper is compiled; no loop calls it.
@tf.function
def compiled_step():
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w)))
    opt.apply_gradients(zip(tape.gradient(loss, [w]), [w]))


def once():
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w)))
    return tape.gradient(loss, [w])


for step in range(steps):
    compiled_step()
    noisy_step()
once()
