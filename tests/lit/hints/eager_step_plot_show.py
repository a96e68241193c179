# RUN: %check-hints %s
# A loop that shows a plot on every iteration waits for the drawing; one that calls
# `plt.show()` with nothing drawn in it (a stray call after the step) shows no new
# figure, and `plt.show()` returns at once: its eager step costs what it always does.
import matplotlib.pyplot as plt
import numpy as np
import tensorflow as tf

w = tf.Variable(tf.random.normal([4, 1]))
opt = tf.keras.optimizers.SGD(0.1)
data = np.random.normal(size=[1000, 4]).astype(np.float32)


def learn():
    batch = data[np.random.choice(1000, size=32)]
    with tf.GradientTape() as tape:  # expected-hint HARP103
        loss = tf.reduce_mean(tf.square(tf.matmul(batch, w)))
    opt.apply_gradients(zip(tape.gradient(loss, [w]), [w]))
    return loss


for step in range(5000):
    learn()
    plt.show()

# Near miss: every iteration draws the loss curve and shows it, a wait of its own.
losses = []
for step in range(5000):
    losses.append(float(learn()))
    plt.plot(losses)
    plt.show()
