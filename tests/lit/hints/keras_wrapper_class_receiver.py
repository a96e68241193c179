# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# `self.actor.predict(x)` is Keras' `predict` only when `self.actor` of that class is a
# Keras model: here it is an instance of the program's wrapper class, whose own
# `predict` calls Keras, and that call is reported once, where it is. A `compile` of
# another class's `self.actor` says nothing about an unpickled `self.actor`.
import pickle

import gym
import numpy as np
from tensorflow.keras.layers import Dense, Input
from tensorflow.keras.models import Model


class ActorModel:
    def __init__(self):
        inputs = Input((4,))
        self.actor = Model(inputs=inputs, outputs=Dense(2)(inputs))
        self.actor.compile(loss="mse", optimizer="adam")

    def predict(self, state):
        return self.actor.predict(state)  # expected-hint HARP404


class Agent:
    def __init__(self):
        self.env = gym.make("CartPole-v1")
        self.actor = ActorModel()

    def test(self):
        for episode in range(100):
            state, done = self.env.reset(), False
            while not done:
                action = self.actor.predict(np.reshape(state, [1, 4]))[0]
                state, reward, done, _ = self.env.step(int(np.argmax(action)))


class PickledAgent:
    def __init__(self, path):
        self.env = gym.make("CartPole-v1")
        with open(path, "rb") as f:
            self.actor = pickle.load(f)  # a scikit-learn policy, say

    def test(self):
        for episode in range(100):
            state, done = self.env.reset(), False
            while not done:
                action = self.actor.predict(np.reshape(state, [1, 4]))[0]
                state, reward, done, _ = self.env.step(int(np.argmax(action)))


if __name__ == "__main__":
    Agent().test()
    PickledAgent("policy.pkl").test()
