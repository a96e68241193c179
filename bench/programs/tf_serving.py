"""Batch inference with a Keras model, each request batch served by a compiled function."""

import os

import numpy as np
import tensorflow as tf

SCALE = float(os.environ.get("HARP_BENCH_SCALE", "1"))
tf.keras.utils.set_random_seed(17)
model = tf.keras.Sequential([tf.keras.Input(shape=(32,)),
                             tf.keras.layers.Dense(128, activation="relu"),
                             tf.keras.layers.Dense(10)])
rng = np.random.default_rng(17)
requests = [rng.normal(size=(64, 32)).astype(np.float32) for _ in range(int(250 * SCALE))]

labels = []
for batch in requests:
    @tf.function
    def serve(x):
        return tf.argmax(tf.nn.softmax(model(x, training=False)), axis=1)

    labels.append(serve(batch).numpy())
labels = np.concatenate(labels)
print("served", len(labels), "histogram", np.bincount(labels, minlength=10).tolist())
