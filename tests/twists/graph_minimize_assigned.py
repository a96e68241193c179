# twist: `train = ...minimize(loss)` in the loop only assigns `train` (it read as "reads `train`")
# expect: HARP101 fixed
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
tf.set_random_seed(0)
X = np.linspace(-1, 1, 32, dtype=np.float32).reshape(-1, 1)
Y = 3 * X + 1
x_ph = tf.placeholder(tf.float32, [None, 1])
y_ph = tf.placeholder(tf.float32, [None, 1])
w = tf.Variable(tf.zeros([1, 1]))
b = tf.Variable(0.0)
loss = tf.reduce_mean(tf.square(tf.matmul(x_ph, w) + b - y_ph))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(20):
        train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
        sess.run(train, {x_ph: X, y_ph: Y})
    print(round(float(sess.run(loss, {x_ph: X, y_ph: Y})), 5))
