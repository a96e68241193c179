# RUN: %check-hints %s
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
x_ph = tf.placeholder(tf.float32, [None, 4])
w = tf.Variable(tf.zeros([4, 1]))
loss = tf.reduce_mean(tf.matmul(x_ph, w))
train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
acc = tf.reduce_max(w)
sess = tf.Session()
for step in range(5):
    batch = np.random.rand(2, 4)
    sess.run(train, {x_ph: batch})
    l = sess.run(loss, {x_ph: batch})  # expected-hint HARP104
    a = sess.run(acc)  # expected-hint HARP104

while True:
    sess.run(train, feed_dict={x_ph: np.random.rand(2, 4)})
    l = sess.run(loss, feed_dict={x_ph: np.random.rand(2, 4)})  # expected-hint HARP104
    break

# Near misses: one run with all fetches; runs in different loops.
for step in range(5):
    _, l = sess.run([train, loss], {x_ph: np.random.rand(2, 4)})
for step in range(5):
    sess.run(train, {x_ph: np.random.rand(2, 4)})
