# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# A Keras soft update, weight by weight, on every training step (`apply_gradients` makes
# the loop a training loop): eager ops per variable, and `set_weights` copies every weight
# through the host. Near misses: the same update run once from `__init__` (tau=1); a loop
# over the weights that only reads them.
import numpy as np
import tensorflow as tf
from tensorflow import keras


class Agent:
    def __init__(self, tau=0.005):
        self.tau = tau
        self.actor = keras.Sequential([keras.layers.Dense(64), keras.layers.Dense(2)])
        self.target = keras.Sequential([keras.layers.Dense(64), keras.layers.Dense(2)])
        self.opt = keras.optimizers.Adam(1e-3)
        self.update_network_parameters(tau=1)

    def update_network_parameters(self, tau=None):
        if tau is None:
            tau = self.tau
        weights = []
        targets = self.target.weights
        for i, weight in enumerate(self.actor.weights):  # expected-hint HARP405
            weights.append(weight * tau + targets[i] * (1 - tau))
        self.target.set_weights(weights)

    def norms(self):
        return [tf.norm(w) for w in self.actor.weights]

    def learn(self, state):
        with tf.GradientTape() as tape:  # expected-hint HARP103
            loss = tf.reduce_mean(self.actor(state) ** 2)
        grads = tape.gradient(loss, self.actor.trainable_variables)
        self.opt.apply_gradients(zip(grads, self.actor.trainable_variables))
        self.update_network_parameters()


agent = Agent()
for step in range(100000):
    agent.learn(np.random.randn(32, 8).astype("float32"))
print(agent.norms())
