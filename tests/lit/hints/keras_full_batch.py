# RUN: %check-hints %s
# Full-batch training (a graph network on one graph): the same whole set every epoch,
# given as one batch (`batch_size=A.shape[0]`, `len(x)`), so each `fit` is one training
# step and each `predict` one forward, each paying Keras' per-call set-up. Near miss: the
# same set in batches of 32 is a real epoch per `fit`.
import numpy as np
from keras.layers import Dense, Input
from keras.models import Model

features = np.random.rand(2708, 16)
adjacency = np.random.rand(2708, 2708)
labels = np.random.rand(2708, 7)
inputs = Input(shape=(16,))
model = Model(inputs, Dense(7)(inputs))
model.compile(loss="categorical_crossentropy", optimizer="adam")
for epoch in range(200):
    model.fit(features, labels, batch_size=adjacency.shape[0], epochs=1, shuffle=False, verbose=0)  # expected-hint HARP404
    preds = model.predict(features, batch_size=len(features))  # expected-hint HARP404
    model.fit(features, labels, batch_size=32, epochs=1, verbose=0)
