# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# A TF2 training step run eagerly on every step is reported even when it reads values on
# the host that only feed a log or the step's own results (`loss.numpy()` added to a
# running sum, `np.amax` of the target network's output): the message names them, to move
# out of the compiled step. Near misses: a step whose host read decides its path (`if
# loss.numpy() > 10.0:` in it) cannot be traced as it is; a step run when a counter that
# the guarded branch resets reaches its limit (`if agent.t >= agent.t_max: ...; agent.t =
# 0`) runs once in t_max steps, and one in a loop whose environment sleeps on every step to
# be watched (`time.sleep` in its `render()`) is lost in the wait (the aggressive level).
import time

import numpy as np
import tensorflow as tf


class Agent:
    def __init__(self):
        self.model = tf.keras.Sequential([tf.keras.layers.Dense(2)])
        self.target = tf.keras.Sequential([tf.keras.layers.Dense(2)])
        self.optimizer = tf.keras.optimizers.Adam(1e-3)
        self.avg_loss = 0.0
        self.t = 0
        self.t_max = 20

    def train_model(self, states, rewards):
        params = self.model.trainable_variables
        with tf.GradientTape() as tape:  # expected-hint HARP103
            q = self.model(states)
            max_q = np.amax(self.target(states), axis=1)
            targets = rewards + 0.99 * max_q
            loss = tf.reduce_mean(tf.square(targets - tf.reduce_max(q, axis=1)))
            self.avg_loss += loss.numpy()
        grads = tape.gradient(loss, params)
        self.optimizer.apply_gradients(zip(grads, params))

    def clipped_update(self, states):
        params = self.model.trainable_variables
        with tf.GradientTape() as tape:  # near miss: a host read steers the step
            loss = tf.reduce_mean(tf.square(self.model(states)))
            if loss.numpy() > 10.0:
                loss = loss / 10.0
        grads = tape.gradient(loss, params)
        self.optimizer.apply_gradients(zip(grads, params))

    def rollout_update(self, states):
        params = self.model.trainable_variables
        with tf.GradientTape() as tape:  # expected-hint@aggressive HARP103
            loss = tf.reduce_mean(tf.square(self.model(states)))
        grads = tape.gradient(loss, params)
        self.optimizer.apply_gradients(zip(grads, params))

    def watched_update(self, states):
        params = self.model.trainable_variables
        with tf.GradientTape() as tape:  # expected-hint@aggressive HARP103
            loss = tf.reduce_mean(tf.square(self.model(states)))
        grads = tape.gradient(loss, params)
        self.optimizer.apply_gradients(zip(grads, params))


class SlowEnv:
    def step(self, action):
        self.render()
        return np.random.rand(32, 4).astype(np.float32)

    def render(self):
        time.sleep(0.01)


agent = Agent()
states = np.random.rand(32, 4).astype(np.float32)
rewards = np.random.rand(32).astype(np.float32)
for step in range(100000):
    agent.train_model(states, rewards)
    agent.clipped_update(states)
    agent.t += 1
    if agent.t >= agent.t_max:
        agent.rollout_update(states)
        agent.t = 0
env = SlowEnv()
while True:
    agent.watched_update(env.step(0))
