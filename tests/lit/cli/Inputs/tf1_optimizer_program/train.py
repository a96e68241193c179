import numpy as np
import tensorflow as tf

import optim

x = tf.placeholder(tf.float32, [None, 8])
y = tf.placeholder(tf.float32, [None, 1])
w = tf.Variable(tf.zeros([8, 1]))
loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - y))
train_op = optim.adam([w], loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(10000):
        xs, ys = np.random.rand(64, 8), np.random.rand(64, 1)
        sess.run(train_op, {x: xs, y: ys})
