# RUN: %check-hints %s
# TF1 as people wrote it, `import tensorflow as tf`, gets the same hints as compat.v1:
# RUN: sed -e 's/^import tensorflow.compat.v1 as tf$/import tensorflow as tf/' -e '/disable_eager_execution/d' %s > %t.py
# RUN: grep -q '^import tensorflow as tf$' %t.py && %check-hints %t.py
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
x_ph = tf.placeholder(tf.float32, [None, 4])
y_ph = tf.placeholder(tf.float32, [None, 1])
lr_ph = tf.placeholder(tf.float32, [])
loss = tf.reduce_mean(tf.matmul(x_ph, tf.ones([4, 1])) - y_ph) * lr_ph
X = np.load("x.npy")
Y = np.load("y.npy")
steps = 1000
sess = tf.Session()
for step in range(steps):
    sess.run(loss, feed_dict={x_ph: X, y_ph: Y, lr_ph: 0.1})  # expected-hint HARP203
with tf.Session() as s2:
    for step in range(steps):
        s2.run(loss, feed_dict={x_ph: X, y_ph: Y, lr_ph: step * 0.1})  # expected-hint HARP203
step = 0
while step < steps:
    sess.run([loss], {x_ph: X, y_ph: Y, lr_ph: 0.1})  # expected-hint HARP203
    step += 1

# Near misses: every fed value changes per iteration; a feed outside any loop; a handful
# of numbers written in the program; the test set fed once per epoch; a constant range.
for i in range(steps):
    xb, yb = X[i * 8:(i + 1) * 8], Y[i * 8:(i + 1) * 8]
    sess.run(loss, {x_ph: xb, y_ph: yb, lr_ph: i * 0.1})
sess.run(loss, {x_ph: X, y_ph: Y, lr_ph: 0.1})
x_small = np.array([[0, 0, 1, 1], [1, 0, 1, 0]], dtype=np.float32)
for step in range(steps):
    sess.run(loss, {x_ph: x_small, y_ph: [[0], [1]], lr_ph: 0.1})
for epoch in range(steps):
    for i in range(steps):
        sess.run(loss, {x_ph: X[i:i + 8], y_ph: Y[i:i + 8], lr_ph: 0.1})
    sess.run(loss, {x_ph: X, y_ph: Y, lr_ph: 0.0})
for epoch in range(3):
    sess.run(loss, {x_ph: X, y_ph: Y, lr_ph: 0.01})
