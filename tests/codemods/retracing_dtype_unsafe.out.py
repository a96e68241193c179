import tensorflow as tf


@tf.function
def scaled(x, factor):
    return x * factor


x = tf.ones([3], dtype=tf.int32)
outs = []
for factor in range(5):
    outs.append(int(tf.reduce_sum(scaled(x, tf.constant(factor)))))
print(outs)
