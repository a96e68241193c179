import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

tf.keras.utils.set_random_seed(0)


class Brain:
    def __init__(self):
        self.model = tf.keras.Sequential([tf.keras.Input(shape=(4,)),
                                          tf.keras.layers.Dense(8, activation="relu"),
                                          tf.keras.layers.Dense(2)])
        self.model.compile(loss="mse", optimizer="sgd")

    # `epochs` is a parameter every call leaves to its default of 1: the fix rests on
    # that, which a caller outside the program could change, so it needs --unsafe-fixes
    def train(self, x, y, epochs=1, verbose=0):
        self.model.fit(x, y, batch_size=64, epochs=epochs, verbose=verbose)


brain = Brain()
states = np.random.RandomState(0).rand(48, 4).astype("float32")
for t in range(0, len(states), 16):
    batch = states[t:t + 16]
    brain.train(batch, np.stack([batch.sum(axis=1), batch.mean(axis=1)], axis=1))
for row in brain.model.predict_on_batch(states[:3]):
    print(*(round(float(v), 5) for v in row))
