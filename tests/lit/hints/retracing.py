# RUN: %check-hints %s
import tensorflow as tf


@tf.function
def step(x, lr):
    return x * lr


x = tf.ones([4])
for i in range(10):
    y = step(x, i)  # expected-hint HARP102
    lr = 0.1 * i
    z = step(x, lr)  # expected-hint HARP102

    @tf.function
    def inner(v):  # expected-hint HARP102
        return v + 1

    f = tf.function(lambda v: v * 2)  # expected-hint HARP102

# Near misses: tensors as arguments; a Python value that does not change in the loop.
for i in range(10):
    y = step(x, tf.constant(i))
    z = step(x, 0.5)
