"""A small GAN in TensorFlow 2 (eager), one tape per network, learning a 2-D ring."""

import math
import os

import tensorflow as tf

SCALE = float(os.environ.get("HARP_BENCH_SCALE", "1"))
tf.keras.utils.set_random_seed(16)
B, Z = 128, 8
generator = tf.keras.Sequential([tf.keras.Input(shape=(Z,)),
                                 tf.keras.layers.Dense(64, activation="relu"),
                                 tf.keras.layers.Dense(2)])
discriminator = tf.keras.Sequential([tf.keras.Input(shape=(2,)),
                                     tf.keras.layers.Dense(64, activation="relu"),
                                     tf.keras.layers.Dense(1)])
g_opt = tf.keras.optimizers.Adam(1e-3)
d_opt = tf.keras.optimizers.Adam(1e-3)
bce = tf.keras.losses.BinaryCrossentropy(from_logits=True)
angles = tf.random.uniform([int(250 * SCALE), B], 0.0, 2 * math.pi)
noise = tf.random.normal([int(250 * SCALE), B, Z])

d_history, g_history = [], []
for angle, z in zip(angles, noise):
    real = tf.stack([tf.cos(angle), tf.sin(angle)], axis=1)
    with tf.GradientTape() as d_tape:
        fake = generator(z, training=True)
        d_loss = bce(tf.ones([B, 1]), discriminator(real, training=True)) + \
            bce(tf.zeros([B, 1]), discriminator(fake, training=True))
    d_grads = d_tape.gradient(d_loss, discriminator.trainable_variables)
    d_opt.apply_gradients(zip(d_grads, discriminator.trainable_variables))
    with tf.GradientTape() as g_tape:
        g_loss = bce(tf.ones([B, 1]), discriminator(generator(z, training=True),
                                                    training=True))
    g_grads = g_tape.gradient(g_loss, generator.trainable_variables)
    g_opt.apply_gradients(zip(g_grads, generator.trainable_variables))
    d_history.append(d_loss)
    g_history.append(g_loss)

print(f"d {float(tf.reduce_mean(d_history)):.4f} g {float(tf.reduce_mean(g_history)):.4f}")
