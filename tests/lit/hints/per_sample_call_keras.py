# RUN: %check-hints %s
# Keras `predict` on each example of a replay minibatch: when nothing in the loop trains
# that model, the calls are independent and one batched call does them all (HARP403, not
# HARP404's per-call set-up). Near misses: the online model, fitted inside the same loop,
# sees new weights on every call (HARP404: call it on one batch each time); an input the
# loop rebinds from an earlier call's result.
import random

import numpy as np
from tensorflow import keras


def build():
    model = keras.Sequential([keras.layers.Dense(2)])
    model.compile(loss="mse", optimizer="adam")
    return model


model, target = build(), build()
memory = [(np.ones((1, 4)), 0, 1.0, np.ones((1, 4)), False) for _ in range(100)]
for step in range(1000):
    minibatch = random.sample(memory, 32)
    for state, action, reward, next_state, done in minibatch:
        best = target.predict(next_state)  # expected-hint HARP403
        q = model.predict(state)  # expected-hint HARP404
        q[0][action] = reward + np.amax(best[0])
        model.fit(state, q, epochs=1, verbose=0)  # expected-hint HARP404
    states, targets = [], []
    for state, action, reward, next_state, done in minibatch:
        q = target.predict(state)  # expected-hint HARP403
        states.append(state[0])
        targets.append(q[0])
    model.fit(np.array(states), np.array(targets), epochs=1, verbose=0)  # expected-hint HARP404
    for state, action, reward, next_state, done in minibatch:
        state = target.predict(state)  # expected-hint HARP403
        state = target.predict(state)  # expected-hint HARP404
