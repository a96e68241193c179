import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.Input(shape=(4,)), tf.keras.layers.Dense(1)])
model.compile(loss="mse", optimizer="sgd")
xs = np.random.rand(64, 4)
losses = []
for i in range(len(xs)):
    # The History that `fit` returns is used: `train_on_batch` returns the loss instead.
    history = model.fit(xs[i:i + 1], xs[i:i + 1, :1], epochs=1, verbose=0)
    losses.append(history.history["loss"][0])
    # `batch_size` is an argument `predict_on_batch` does not take.
    model.predict(xs[i:i + 1], batch_size=1)
