import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
w = tf.Variable(tf.zeros([3]))
total = tf.reduce_sum(w * w)
sess = tf.Session()
sess.run(tf.global_variables_initializer())
history = []
for step in range(50):
    new_w = np.full(3, step, dtype=np.float32)
    # push the host-side update into the graph
    sess.run(tf.assign(w, new_w))
    history.append(float(sess.run(total)))
print(history)
