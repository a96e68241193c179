# RUN: %check-hints %s
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
x_ph = tf.placeholder(tf.float32, [None, 4])
w = tf.Variable(tf.zeros([4, 1]))
loss = tf.reduce_mean(tf.matmul(x_ph, w))
train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
acc = tf.reduce_max(tf.matmul(x_ph, w))
sess = tf.Session()
steps = 100
# An evaluation loop: nothing changes the variables, so the runs merge into one.
for step in range(steps):
    batch = np.random.rand(2, 4)
    l = sess.run(loss, {x_ph: batch})
    a = sess.run(acc, {x_ph: batch})  # expected-hint HARP104

while True:
    l = sess.run(loss, feed_dict={x_ph: np.random.rand(2, 4)})
    a = sess.run(acc, feed_dict={x_ph: np.random.rand(2, 4)})  # expected-hint HARP104
    break


def evaluate(batches):
    for batch in batches:
        feed = {x_ph: batch}
        total = sess.run(loss, feed_dict=feed)
        best = sess.run(fetches=acc, feed_dict=feed)  # expected-hint HARP104
    return total, best


# Near misses: one run with all fetches; runs in different loops; a run that trains
# before one that reads the updated variables (merged, the loss would be the one before
# the update); a handful of iterations.
for step in range(steps):
    _, l = sess.run([train, loss], {x_ph: np.random.rand(2, 4)})
for step in range(steps):
    sess.run(train, {x_ph: np.random.rand(2, 4)})
for step in range(steps):
    batch = np.random.rand(2, 4)
    sess.run(train, {x_ph: batch})
    l = sess.run(loss, {x_ph: batch})
for step in range(3):
    l = sess.run(loss, {x_ph: np.random.rand(2, 4)})
    a = sess.run(acc, {x_ph: np.random.rand(2, 4)})
