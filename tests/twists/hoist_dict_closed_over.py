# twist: a tf.function closes over a dict the loop changes
import tensorflow as tf

config = {"scale": tf.constant(1.0)}


def scaled(x):
    return x * config["scale"]


x = tf.constant([1.0, 2.0])
for step in range(40):
    y = scaled(x)
    print(y.numpy().tolist())
    config["scale"] = tf.constant(float(step + 2))
