"""A Keras MLP trained with a hand-written GradientTape loop (TensorFlow 2, eager)."""

import os

import numpy as np
import tensorflow as tf

SCALE = float(os.environ.get("HARP_BENCH_SCALE", "1"))
tf.keras.utils.set_random_seed(12)
rng = np.random.default_rng(12)
features = rng.normal(size=(4096, 20)).astype(np.float32)
labels = (features[:, :5].sum(axis=1) > 0).astype(np.int64)
dataset = tf.data.Dataset.from_tensor_slices((features, labels)).batch(32)

model = tf.keras.Sequential([tf.keras.Input(shape=(20,)),
                             tf.keras.layers.Dense(64, activation="relu"),
                             tf.keras.layers.Dense(64, activation="relu"),
                             tf.keras.layers.Dense(2)])
loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
optimizer = tf.keras.optimizers.Adam(1e-3)

for epoch in range(max(1, int(3 * SCALE))):
    total = 0.0
    for x, y in dataset:
        with tf.GradientTape() as tape:
            logits = model(x, training=True)
            loss = loss_fn(y, logits)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        total += float(loss)
    print(f"epoch {epoch} loss {total / len(dataset):.4f}")
