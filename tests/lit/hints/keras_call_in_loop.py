# RUN: %check-hints %s
# RUN: not %check-hints --level aggressive %s 2>&1 | FileCheck --check-prefix=AGGRESSIVE %s
# AGGRESSIVE-DAG: keras_call_in_loop.py:74: unexpected HARP404
# AGGRESSIVE-DAG: keras_call_in_loop.py:79: unexpected HARP404
# AGGRESSIVE-DAG: keras_call_in_loop.py:84: unexpected HARP404
# Keras predict and fit called per environment step or per example (the deep-Q-learning
# agents of keon/deep-q-learning and rlcode/reinforcement-learning), and near misses.
import random

import numpy as np
import tensorflow as tf
import torch
from tensorflow.keras.layers import Dense
from tensorflow.keras.models import Sequential


class Agent:
    def __init__(self, state_size, action_size):
        self.action_size = action_size
        self.model = self._build_model(state_size)
        self.memory = []

    def _build_model(self, state_size):
        model = Sequential()
        model.add(Dense(24, input_dim=state_size, activation="relu"))
        model.add(Dense(self.action_size))
        model.compile(loss="mse", optimizer="adam")
        return model

    def act(self, state):
        if np.random.rand() <= 0.1:
            return random.randrange(self.action_size)
        return np.argmax(self.model.predict(state, verbose=0)[0])  # expected-hint HARP404

    def replay(self, batch):
        for state, action, reward, next_state in batch:
            target = reward + 0.9 * np.amax(self.model.predict(next_state)[0])  # expected-hint HARP404
            target_f = self.model.predict(state)  # expected-hint HARP404
            target_f[0][action] = target
            self.model.fit(state, target_f, epochs=1, verbose=0)  # expected-hint HARP404


def env_step(action):
    return np.random.rand(4), 1.0, random.random() < 0.05


agent = Agent(4, 2)
for episode in range(100):
    state = np.reshape(np.random.rand(4), [1, 4])
    for t in range(500):
        action = agent.act(state)
        next_state, reward, done = env_step(action)
        next_state = np.reshape(next_state, [1, 4])
        agent.memory.append((state, action, reward, next_state))
        state = next_state
        if done:
            agent.replay(agent.memory[-32:])  # runs once per episode, at its end...
            break
    # ...but each replay still predicts per example: the replay loop itself is the hot loop

# A functional-API model predicting one row at a time (this program also trains: an evaluation pass).
inputs = tf.keras.Input(shape=(4,))
net = tf.keras.Model(inputs, tf.keras.layers.Dense(1)(inputs))
xs = np.random.rand(64, 4)
preds = [net.predict(xs[i:i + 1], verbose=0) for i in range(len(xs))]  # expected-hint@aggressive HARP404

# Near misses.
x_test = np.random.rand(16, 4)
for epoch in range(20):
    net.fit(xs, xs[:, :1], epochs=1, verbose=0)  # the whole set once per epoch: a real epoch
    scores = net.predict(x_test)  # the same input every epoch: one evaluation per epoch
for step in range(1000):
    if step % 100 == 0:
        net.predict(xs[step % 64:step % 64 + 1])  # periodic: every 100 steps
for fold in range(5):
    model = Sequential([Dense(1)])  # a sweep: each fold builds and trains its own model
    model.compile(loss="mse", optimizer="adam")
    model.fit(xs, xs[:, :1], epochs=1, verbose=0)
    model.predict(xs[fold::5])
for step in range(1000):
    net.fit(xs[step % 64:step % 64 + 8], xs[step % 64:step % 64 + 8, :1], epochs=10)  # ten epochs
for step in range(1000):
    if np.random.rand() < 0.01:
        net.fit(xs[step % 64:step % 64 + 1], xs[step % 64:step % 64 + 1, :1], epochs=1)
        break  # the branch leaves the loop: it runs once, on the last iteration


class TorchNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.predict = torch.nn.Linear(4, 1)  # a layer named `predict`, not Keras

    def forward(self, x):
        return self.predict(x)


torch_net = TorchNet()
for row in torch.randn(8, 4):
    torch_net.predict(row)


# A model bound in branches (a tiny or a full variant, as detection scripts choose by a
# flag): every binding makes a Keras model, so the receiver is one.
def tiny_model():
    tiny_in = tf.keras.Input(shape=(4,))
    return tf.keras.Model(tiny_in, tf.keras.layers.Dense(1)(tiny_in))


if random.random() < 0.5:
    detector = tiny_model()
else:
    detector = tf.keras.Sequential([tf.keras.layers.Dense(1)])
for frame in np.random.rand(300, 4):
    boxes = detector.predict(np.expand_dims(frame, 0))  # expected-hint@aggressive HARP404
# One binding is not a Keras model: nothing shows the receiver is one.
if random.random() < 0.5:
    either = tiny_model()
else:
    either = TorchNet()
for frame in np.random.rand(300, 4):
    either.predict(np.expand_dims(frame, 0))
