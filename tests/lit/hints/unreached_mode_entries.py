# RUN: %check-hints %s
# A function a script runs without naming it in its main block still runs: `main`, which
# `tf.app.run()` calls by convention, and the functions it names, a worker handed to a
# thread included. Their hints are reported as usual.
import threading

import gym
import numpy as np
import tensorflow as tf
from keras.layers import Dense
from keras.models import Sequential

model = Sequential([Dense(2, input_shape=(4,))])
model.compile(loss="mse", optimizer="adam")


def worker():
    env = gym.make("CartPole-v1")
    for episode in range(1000):
        state, done = env.reset(), False
        while not done:
            q = model.predict(np.reshape(state, [1, 4]))  # expected-hint HARP404
            state, reward, done, _ = env.step(int(np.argmax(q)))
            model.fit(np.reshape(state, [1, 4]), q, epochs=1, verbose=0)  # expected-hint HARP404


def main(_):
    threading.Thread(target=worker).start()


if __name__ == "__main__":
    tf.app.run()
