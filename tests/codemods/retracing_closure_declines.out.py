import tensorflow as tf

x = tf.ones([3])
outs = []
for k in range(4):
    scale = 1.5 * k
    double = tf.function(lambda v: v * scale)
    outs.append(float(tf.reduce_sum(double(x))))

    @tf.function
    def shift(v):
        return v + scale

    outs.append(float(tf.reduce_sum(shift(x))))
print(outs)
