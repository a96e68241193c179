# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# A loop that draws the environment on every step (`env.render()`) is paced by the
# drawing, milliseconds a frame: a per-step `predict` there is the aggressive level's. A
# render behind a flag (`if args.render:`, off by default) paces nothing.
import argparse

import gym
import numpy as np
from keras.layers import Dense
from keras.models import Sequential

parser = argparse.ArgumentParser()
parser.add_argument("--render", action="store_true")
args = parser.parse_args()


class Agent:
    def __init__(self):
        self.env = gym.make("CartPole-v1")
        self.model = Sequential([Dense(2, input_shape=(4,))])
        self.model.compile(loss="mse", optimizer="adam")

    def train(self):
        for episode in range(1000):
            state, done = self.env.reset(), False
            while not done:
                if args.render:
                    self.env.render()
                q = self.model.predict(np.reshape(state, [1, 4]))  # expected-hint HARP404
                state, reward, done, _ = self.env.step(int(np.argmax(q)))
                self.model.fit(np.reshape(state, [1, 4]), q, epochs=1, verbose=0)  # expected-hint HARP404

    def watch(self):
        for episode in range(10):
            state, done = self.env.reset(), False
            while not done:
                self.env.render()
                q = self.model.predict(np.reshape(state, [1, 4]))  # expected-hint@aggressive HARP404
                state, reward, done, _ = self.env.step(int(np.argmax(q)))


if __name__ == "__main__":
    agent = Agent()
    agent.train()
    agent.watch()
