# RUN: %check-hints %s
# An environment loop whose `agent` parameter is bound to two classes: a random agent that
# fills the memory first, then the learning agent (the random one released to `None`
# after). `agent.replay()` may run either class's method; the learning agent's runs Keras
# `predict` and a one-epoch `fit` on every environment step. `epochs` is a parameter that
# every call leaves to its default of 1.
import random

import numpy
from keras.layers import Dense
from keras.models import Sequential


class Brain:
    def __init__(self):
        self.model = Sequential([Dense(2, input_dim=4)])
        self.model.compile(loss="mse", optimizer="rmsprop")

    def train(self, x, y, epochs=1, verbose=0):
        self.model.fit(x, y, batch_size=64, epochs=epochs, verbose=verbose)  # expected-hint HARP404

    def predict(self, s):
        return self.model.predict(s)  # expected-hint HARP404


class Agent:
    def __init__(self):
        self.brain = Brain()
        self.samples = []

    def act(self, s):
        return random.randint(0, 1)

    def observe(self, sample):
        self.samples.append(sample)

    def replay(self):
        states = numpy.random.rand(64, 4)
        p = self.brain.predict(states)
        self.brain.train(states, p)


class RandomAgent:
    def __init__(self):
        self.samples = []

    def act(self, s):
        return random.randint(0, 1)

    def observe(self, sample):
        self.samples.append(sample)

    def replay(self):
        pass


class Environment:
    def run(self, agent):
        s = numpy.zeros(4)
        while True:
            a = agent.act(s)
            s_ = numpy.random.rand(4)
            agent.observe((s, a, 1.0, s_))
            agent.replay()
            s = s_
            if random.random() < 0.01:
                break


env = Environment()
agent = Agent()
random_agent = RandomAgent()
for _ in range(10):
    env.run(random_agent)
agent.samples = random_agent.samples
random_agent = None
while True:
    env.run(agent)
