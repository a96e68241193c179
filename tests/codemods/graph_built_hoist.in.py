import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
rng = np.random.default_rng(0)
X = rng.normal(size=(64, 4)).astype(np.float32)
Y = X @ np.array([[1.0], [-2.0], [0.5], [3.0]], dtype=np.float32)

x_ph = tf.placeholder(tf.float32, [None, 4])
y_ph = tf.placeholder(tf.float32, [None, 1])
w = tf.Variable(tf.zeros([4, 1]))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(30):
        pred = tf.matmul(x_ph, w)
        loss = tf.reduce_mean(tf.square(pred - y_ph))
        grad = tf.gradients(loss, [w])[0]
        _, value = sess.run([tf.assign_sub(w, 0.1 * grad), loss], {x_ph: X, y_ph: Y})
    print(round(float(value), 5))
