# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# An episode loop whose iteration runs an inner loop of environment steps and then one
# batched update over the episode (`replay`): the update's `predict` and `fit` run once per
# episode, beside thousands of steps, not on each of them. The per-step `predict` in `act`
# is the cost worth a change; the per-episode ones are reported at the aggressive level.
import gym
import numpy as np
from keras.layers import Dense
from keras.models import Sequential


class Agent:
    def __init__(self):
        self.env = gym.make("CartPole-v1")
        self.actor = Sequential([Dense(2, input_shape=(4,))])
        self.critic = Sequential([Dense(1, input_shape=(4,))])
        self.actor.compile(loss="categorical_crossentropy", optimizer="adam")
        self.critic.compile(loss="mse", optimizer="adam")

    def act(self, state):
        return self.actor.predict(state)  # expected-hint HARP404

    def replay(self, states, rewards):
        states = np.vstack(states)
        values = self.critic.predict(states)  # expected-hint@aggressive HARP404
        self.actor.fit(states, rewards - values, epochs=1, verbose=0)  # expected-hint@aggressive HARP404

    def run(self):
        for episode in range(1000):
            state, done = self.env.reset(), False
            states, rewards = [], []
            while not done:
                probs = self.act(np.reshape(state, [1, 4]))
                state, reward, done, _ = self.env.step(int(np.argmax(probs)))
                states.append(np.reshape(state, [1, 4]))
                rewards.append(reward)
            self.replay(states, np.array(rewards))


if __name__ == "__main__":
    Agent().run()
