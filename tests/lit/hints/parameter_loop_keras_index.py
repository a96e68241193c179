# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# A Keras soft update written over `get_weights()` lists by index (`for i in
# range(len(W)): T[i] = tau * W[i] + (1 - tau) * T[i]`, then `set_weights(T)`), on every
# environment step of an agent that trains with a one-epoch `fit`: every weight goes
# through the host twice and is blended array by array. Blind readers judged such updates
# a few percent of a step, so it is the aggressive level's. Near misses: the same update
# run once, before the loop; a loop over the same lists that only reads them.
import numpy as np
from tensorflow import keras


class Agent:
    def __init__(self, tau=0.01):
        self.tau = tau
        self.model = keras.Sequential([keras.layers.Dense(8), keras.layers.Dense(2)])
        self.target = keras.Sequential([keras.layers.Dense(8), keras.layers.Dense(2)])
        self.model.compile(loss="mse", optimizer="adam")

    def transfer_weights(self):
        W, T = self.model.get_weights(), self.target.get_weights()
        for i in range(len(W)):  # expected-hint@aggressive HARP405
            T[i] = self.tau * W[i] + (1 - self.tau) * T[i]
        self.target.set_weights(T)

    def norms(self):
        W = self.model.get_weights()
        total = 0.0
        for i in range(len(W)):
            total += float(np.abs(W[i]).sum())
        return total

    def copy_once(self):
        W, T = self.model.get_weights(), self.target.get_weights()
        for i in range(len(W)):
            T[i] = 1.0 * W[i] + 0.0 * T[i]
        self.target.set_weights(T)


agent = Agent()
agent.copy_once()
state = np.zeros((1, 4))
for step in range(1000):
    agent.model.fit(state, np.zeros((1, 2)), epochs=1, verbose=0)
    agent.transfer_weights()
    print(agent.norms())
