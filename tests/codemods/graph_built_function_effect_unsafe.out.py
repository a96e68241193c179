import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
x_ph = tf.placeholder(tf.float32, [None, 3])
w = tf.Variable(np.ones((3, 2), dtype=np.float32))
built = []


def generator(z, weights=w):
    hidden = tf.nn.relu(tf.matmul(z, weights))
    built.append(z)  # a side effect the hoist would run once, not every step
    return tf.sigmoid(hidden)


sess = tf.Session()
sess.run(tf.global_variables_initializer())
outputs = []
generator_hoisted = generator(x_ph)
for step in range(50):
    batch = np.full((2, 3), step, dtype=np.float32)
    outputs.append(float(sess.run(generator_hoisted, feed_dict={x_ph: batch}).sum()))
print([round(o, 5) for o in outputs])
