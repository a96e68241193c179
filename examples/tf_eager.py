"""A TensorFlow 2 eager training loop that syncs with the host every step."""

import tensorflow as tf

tf.random.set_seed(0)
x = tf.random.normal([128, 4])
y = tf.reduce_sum(x, axis=1, keepdims=True)
w = tf.Variable(tf.zeros([4, 1]))
optimizer = tf.keras.optimizers.SGD(0.05)

for step in range(50):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - y))
    grads = tape.gradient(loss, [w])
    optimizer.apply_gradients(zip(grads, [w]))
    if loss.numpy() < 1e-3:
        break
print("final loss", float(loss))
