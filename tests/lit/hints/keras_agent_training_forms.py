# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# An agent's loop of environment steps is its main loop when the loop around it trains,
# also when the training is a step Keras' backend built with an optimizer's updates
# (`K.function(..., updates=...)`, called once an episode) or a handful of minibatch
# updates in a `replay()` after each episode. Its per-step `predict` is reported; it is
# not an evaluation pass of the program's other training (the critic's `fit` below).
import random

import numpy as np
from keras import backend as K
from keras.layers import Dense
from keras.models import Sequential
from keras.optimizers import Adam


class PolicyAgent:
    def __init__(self):
        self.model = Sequential([Dense(2, input_shape=(4,))])
        self.update = self.optimizer()

    def optimizer(self):
        advantages = K.placeholder(shape=(None,))
        loss = -K.mean(K.sum(self.model.output, axis=1) * advantages)
        updates = Adam().get_updates(self.model.trainable_weights, [], loss)
        return K.function([self.model.input, advantages], [], updates=updates)

    def act(self, state):
        return self.model.predict(state)  # expected-hint HARP404

    def train(self, states, advantages):
        self.update([np.array(states), np.array(advantages)])


class ReplayAgent:
    def __init__(self):
        self.model = Sequential([Dense(2, input_shape=(4,))])
        self.model.compile(loss="mse", optimizer=Adam())
        self.memory = []

    def act(self, state):
        return self.model.predict(state)  # expected-hint HARP404

    def replay(self):
        for _ in range(10):
            batch = random.sample(self.memory, 32)
            states = np.array([b[0] for b in batch])
            self.model.fit(states, np.zeros((32, 2)), epochs=1, verbose=0)  # expected-hint@aggressive HARP404


policy = PolicyAgent()
for episode in range(1000):
    states, done = [], False
    while not done:
        state = np.random.rand(4)
        policy.act(np.expand_dims(state, 0))
        states.append(state)
        done = random.random() < 0.05
    policy.train(states, np.ones(len(states)))

replay = ReplayAgent()
for episode in range(1000):
    done = False
    while not done:
        state = np.random.rand(4)
        replay.act(np.expand_dims(state, 0))
        replay.memory.append((state, 0))
        done = random.random() < 0.05
    if len(replay.memory) > 32:
        replay.replay()

critic = Sequential([Dense(1, input_shape=(4,))])
critic.compile(loss="mse", optimizer=Adam())
critic.fit(np.random.rand(256, 4), np.random.rand(256, 1), epochs=10)
