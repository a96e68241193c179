# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# A script whose main block runs one mode (`test`) with the training mode left switched
# off: code that nothing the script runs calls never costs anything as written. Its
# hints rest on a high-risk speculation that it runs, shown at the aggressive level; the
# mode the main block runs is reported as usual, and so is a thread's `run`, which
# `start()` calls (its class has a library base) though the dead mode is named `run` too.
import threading

import gym
import numpy as np
from keras.layers import Dense
from keras.models import Sequential


class Agent:
    def __init__(self):
        self.env = gym.make("CartPole-v1")
        self.model = Sequential([Dense(2, input_shape=(4,))])
        self.model.compile(loss="mse", optimizer="adam")

    def act(self, state):
        return self.model.predict(state)  # expected-hint@aggressive HARP404

    def run(self):
        for episode in range(1000):
            state, done = self.env.reset(), False
            while not done:
                action = int(np.argmax(self.act(np.reshape(state, [1, 4]))))
                state, reward, done, _ = self.env.step(action)
                target = self.model.predict(np.reshape(state, [1, 4]))  # expected-hint@aggressive HARP404
                self.model.fit(np.reshape(state, [1, 4]), target, epochs=1, verbose=0)  # expected-hint@aggressive HARP404

    def test(self):
        for episode in range(100):
            state, done = self.env.reset(), False
            while not done:
                action = int(np.argmax(self.model.predict(np.reshape(state, [1, 4]))))  # expected-hint HARP404
                state, reward, done, _ = self.env.step(action)


class Watcher(threading.Thread):
    def __init__(self):
        super().__init__()
        self.env = gym.make("CartPole-v1")
        self.model = Sequential([Dense(2, input_shape=(4,))])
        self.model.compile(loss="mse", optimizer="adam")

    def run(self):
        for episode in range(100):
            state, done = self.env.reset(), False
            while not done:
                q = self.model.predict(np.reshape(state, [1, 4]))  # expected-hint HARP404
                state, reward, done, _ = self.env.step(int(np.argmax(q)))


if __name__ == "__main__":
    agent = Agent()
    # agent.run()
    agent.test()
    Watcher().start()
