# RUN: %check-hints %s
# Idiomatic TF2 (a tf.function step, tf.data) and TF1 (graph built once): no hints.
import numpy as np
import tensorflow as tf
import tensorflow.compat.v1 as tf1

dataset = tf.data.Dataset.from_tensor_slices((np.ones((64, 4), "float32"),
                                              np.ones((64, 1), "float32"))).batch(16)
w = tf.Variable(tf.zeros([4, 1]))
optimizer = tf.keras.optimizers.SGD(0.1)


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - y))
    optimizer.apply_gradients(zip(tape.gradient(loss, [w]), [w]))
    return loss


losses = []
for x, y in dataset:
    losses.append(train_step(x, y))
print(tf.reduce_mean(tf.stack(losses)).numpy())

graph = tf1.Graph()
with graph.as_default():
    x_ph = tf1.placeholder(tf1.float32, [None, 4])
    v = tf1.Variable(tf1.zeros([4, 1]))
    out = tf1.matmul(x_ph, v)
    init = tf1.global_variables_initializer()
with tf1.Session(graph=graph) as sess:
    sess.run(init)
    for batch in np.split(np.ones((8, 4), "float32"), 4):
        sess.run(out, {x_ph: batch})
