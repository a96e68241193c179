# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# A loop whose iterations each build into a new graph does not grow one: it calls
# `tf.reset_default_graph()` (here in the loader it calls, as a weight converter does for
# each model size), or builds under `with tf.Graph().as_default():` (a graph made on the
# iteration). Near miss of the positive: a graph made once, before the loop, entered on
# every iteration, grows with it.
import numpy as np
import tensorflow as tf

SIZES = [128, 256, 512, 1024, 2048]


def load_weights(size):
    tf.reset_default_graph()
    w = tf.constant(np.ones((size, 4)), dtype=tf.float32)
    with tf.Session() as sess:
        return sess.run(tf.nn.relu(w))


def evaluate(size, data):
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, size])
        y = tf.reduce_sum(x, axis=1)
        with tf.Session() as sess:
            return sess.run(y, {x: data})


shared = tf.Graph()
results = []
for size in range(1, 2000):
    results.append(load_weights(size))
    results.append(evaluate(size, np.ones((2, size))))
    with shared.as_default():
        z = tf.ones([size])  # expected-hint HARP101
        with tf.Session() as sess:
            results.append(sess.run(z))
print(len(results))
