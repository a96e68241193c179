# twist: a function reading a tf.Variable the loop trains looks pure
import tensorflow as tf

v = tf.Variable(1.0)


def doubled():
    return v * 2.0


for _ in range(40):
    y = doubled()
    print(float(y.numpy()))
    v.assign_add(1.0)
