import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
sess = tf.Session()
sums = []
for step in range(50):
    batch = np.arange(step + 3, dtype=np.float32)
    total = tf.reduce_sum(tf.constant(batch))
    sums.append(float(sess.run(total)))
print(sums)
