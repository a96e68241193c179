import tensorflow as tf

tf.random.set_seed(0)
w = tf.Variable(tf.random.normal([8, 8]))


@tf.function
def decayed_step(x, step):
    scale = tf.cast(step, tf.float32) * 0.01
    return tf.reduce_sum(tf.matmul(x, w) * scale)


x = tf.random.normal([4, 8])
total = 0.0
for step in range(20):
    out = decayed_step(x, tf.constant(step))
    total += float(out)
print(round(total, 4))
