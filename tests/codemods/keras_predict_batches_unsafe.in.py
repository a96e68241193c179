import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

tf.keras.utils.set_random_seed(0)
inputs = tf.keras.Input(shape=(4,))
model = tf.keras.Model(inputs, tf.keras.layers.Dense(3)(inputs))
xs = np.random.RandomState(1).rand(40, 4).astype("float32")

# Eight rows per call: `predict_on_batch` runs each slice as one batch, as `predict` does
# for slices up to its batch size (32); for a longer slice it would run it whole.
outputs = []
for i in range(0, len(xs), 8):
    outputs.append(model.predict(xs[i:i + 8], verbose=0))
for row in np.concatenate(outputs)[::7]:
    print(*(round(float(v), 5) for v in row))
