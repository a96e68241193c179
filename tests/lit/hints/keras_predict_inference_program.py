# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# A program that only predicts (no `fit`, no training step anywhere) spends its time in
# its prediction loops: a Keras `predict` per row or per video frame is its main loop,
# reported at the default level (in a program that trains, the same loop is an
# evaluation pass: keras_call_in_loop.py).
import numpy as np
import tensorflow as tf

inputs = tf.keras.Input(shape=(4,))
net = tf.keras.Model(inputs, tf.keras.layers.Dense(1)(inputs))
xs = np.random.rand(64, 4)
preds = [net.predict(xs[i:i + 1], verbose=0) for i in range(len(xs))]  # expected-hint HARP404

detector = tf.keras.Sequential([tf.keras.layers.Dense(1)])
for frame in np.random.rand(300, 4):
    boxes = detector.predict(np.expand_dims(frame, 0))  # expected-hint HARP404
