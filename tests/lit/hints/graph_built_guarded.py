# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# TF1 ops built under a guard of the training loop add a node every so many steps, not
# on every one: an evaluation when the step has moved on by an interval since the last
# one (the marker moved up in the branch), or at an epoch's end (an `except` handler).
# Near misses of the guard: a marker the branch does not move; the same build with no
# guard at all.
import time

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
x = tf.placeholder(tf.float32, [None, 4])
w = tf.Variable(tf.ones([4, 1]))
loss = tf.reduce_sum(tf.matmul(x, w))
train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
sess = tf.Session()
sess.run(tf.global_variables_initializer())
step, last_eval, last_log, last_seen = 0, 0, time.time(), 0
while step < 10000:
    try:
        sess.run(train, feed_dict={x: np.random.rand(8, 4)})
    except tf.errors.OutOfRangeError:
        sess.run(tf.add(w, 1.0))  # expected-hint@aggressive HARP101
        continue
    step += 1
    if step - last_eval >= 1000:
        last_eval = step
        sess.run(tf.add(w, float(step)))  # expected-hint@aggressive HARP101
    if time.time() - last_log > 60:
        last_log = time.time()
        sess.run(tf.add(w, float(step)))  # expected-hint@aggressive HARP101
    if step - last_seen >= 1000:
        sess.run(tf.add(w, float(step)))  # expected-hint HARP101
    sess.run(tf.add(w, float(step)))  # expected-hint HARP101
