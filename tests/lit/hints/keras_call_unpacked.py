# RUN: %check-hints %s
# A Keras model an agent stores from the tuple its builder returns (`self.model,
# self.weights, self.state = self.build(...)`, the builder ending `return model,
# model.trainable_weights, S`), predicted with on every environment step. Near miss: the
# builder's other element, a plain object with a `predict` method of its own.
import numpy as np
from tensorflow import keras


class Rule:
    def predict(self, x):
        return x.sum()


class Actor:
    def __init__(self, n):
        self.model, self.weights, self.rule = self.build(n)

    def build(self, n):
        inputs = keras.Input(shape=(n,))
        model = keras.Model(inputs, keras.layers.Dense(2)(inputs))
        return model, model.trainable_weights, Rule()


actor = Actor(4)
state = np.zeros(4)
for step in range(1000):
    action = actor.model.predict(state.reshape(1, 4))  # expected-hint HARP404
    bias = actor.rule.predict(state)
    state = state + action[0].sum() + bias
