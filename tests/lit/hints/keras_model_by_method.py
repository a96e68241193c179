# RUN: %check-hints %s
# An agent whose model the script attaches from outside (`agent.model = build()`, the class
# stores None): `self.model.train_on_batch(...)` is a method only a Keras model has, so the
# per-step `predict` on it is a Keras call. Near miss: a receiver with no such method.
import numpy as np
from keras.layers import Dense
from keras.models import Sequential


class Agent:
    def __init__(self):
        self.model = None
        self.scorer = None

    def act(self, state):
        return np.argmax(self.model.predict(state))  # expected-hint HARP404

    def score(self, state):
        return self.scorer.predict(state)

    def learn(self, states, targets):
        self.model.train_on_batch(states, targets)


def build():
    model = Sequential([Dense(3, input_dim=4)])
    model.compile(loss="mse", optimizer="adam")
    return model


agent = Agent()
agent.model = build()
agent.scorer = object()
for t in range(100000):
    state = np.random.rand(1, 4)
    action = agent.act(state)
    agent.score(state)
    if t % 4 == 0:
        agent.learn(np.random.rand(32, 4), np.random.rand(32, 3))
