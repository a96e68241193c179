# RUN: %check-hints %s
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
x_ph = tf.placeholder(tf.float32, [None, 4])
y_ph = tf.placeholder(tf.float32, [None, 1])
lr_ph = tf.placeholder(tf.float32, [])
loss = tf.reduce_mean(tf.matmul(x_ph, tf.ones([4, 1])) - y_ph) * lr_ph
X, Y = np.random.rand(32, 4), np.random.rand(32, 1)
sess = tf.Session()
for step in range(10):
    sess.run(loss, feed_dict={x_ph: X, y_ph: Y, lr_ph: 0.1})  # expected-hint HARP203
for epoch in range(3):
    sess.run(loss, {x_ph: X, y_ph: Y, lr_ph: 0.01})  # expected-hint HARP203
with tf.Session() as s2:
    for step in range(10):
        s2.run(loss, feed_dict={x_ph: X, y_ph: Y, lr_ph: step * 0.1})  # expected-hint HARP203

# Near misses: every fed value changes per iteration; a feed outside any loop.
for i in range(4):
    xb, yb = X[i * 8:(i + 1) * 8], Y[i * 8:(i + 1) * 8]
    sess.run(loss, {x_ph: xb, y_ph: yb, lr_ph: i * 0.1})
sess.run(loss, {x_ph: X, y_ph: Y, lr_ph: 0.1})
