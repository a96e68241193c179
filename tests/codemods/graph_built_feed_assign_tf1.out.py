# A TF1 program written `import tensorflow as tf` (harp reads `tf` as tensorflow.compat.v1;
# the test harness runs it under TF2 with `tensorflow` bound to the compatibility layer).
import numpy as np
import tensorflow as tf

w = tf.Variable(tf.zeros([3]))
total = tf.reduce_sum(w * w)
sess = tf.Session()
sess.run(tf.global_variables_initializer())
history = []
new_w_ph = tf.placeholder(w.dtype.base_dtype, w.shape)
assign_hoisted = tf.assign(w, new_w_ph)
for step in range(50):
    new_w = np.full(3, step, dtype=np.float32)
    sess.run(assign_hoisted, feed_dict={new_w_ph: new_w})
    history.append(float(sess.run(total)))
print(history)
