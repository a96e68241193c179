# RUN: %check-hints %s
# A function a thread runs (`threading.Thread(target=worker, args=(self, env))`) takes
# its parameters from the `args` tuple: `agent.act(state)` in the worker's loop runs the
# agent class's `act`, whose per-step `predict` is reported, with the chain through the
# worker. `kwargs=` is not read: a worker given its agent so is left unresolved.
import threading

import gym
import numpy as np
from keras.layers import Dense
from keras.models import Sequential


def worker(agent, env, episodes):
    for episode in range(episodes):
        state, done = env.reset(), False
        while not done:
            action = agent.act(np.reshape(state, [1, 4]))
            state, reward, done, _ = env.step(action)
            agent.train_step(np.reshape(state, [1, 4]), reward)


class Agent:
    def __init__(self):
        self.model = Sequential([Dense(2, input_shape=(4,))])
        self.model.compile(loss="mse", optimizer="adam")

    def act(self, state):
        return int(np.argmax(self.model.predict(state)))  # expected-hint HARP404

    def train_step(self, state, reward):
        self.model.train_on_batch(state, np.full((1, 2), reward))

    def train(self, n_threads=4):
        threads = [threading.Thread(target=worker, args=(self, gym.make("CartPole-v1"), 1000))
                   for _ in range(n_threads)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()


if __name__ == "__main__":
    Agent().train()
