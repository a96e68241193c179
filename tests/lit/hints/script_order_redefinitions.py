# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# A notebook's top level, run in order: `play_one_step` and `model` are defined twice, and
# each loop calls the definition its order reaches, also from inside loops that never
# rebind the name. The acting helper of the second definition predicts one state per
# environment step of the training loop (Keras `predict`, default level); the training
# loop is its most frequent caller, though an evaluation loop that renders every frame
# calls it too (drawing a frame beside training does not hide the step's cost). Near
# misses: the first definition, which no loop calls after the second replaced it; the
# per-episode training step beside the steps (its eager tape step and its batched
# `predict` run once per episode: the aggressive level's).
from collections import deque

import gym
import numpy as np
import tensorflow as tf
from tensorflow import keras

env = gym.make("CartPole-v1")
model = keras.models.Sequential([keras.layers.Dense(1, activation="sigmoid")])


def play_one_step(env, obs):
    probas = model.predict(obs[np.newaxis])
    return env.step(int(probas[0, 0] > 0.5))


model = keras.models.Sequential([keras.layers.Dense(32, activation="elu"),
                                 keras.layers.Dense(2)])
optimizer = keras.optimizers.Adam(learning_rate=1e-3)
replay_memory = deque(maxlen=2000)


def epsilon_greedy_policy(state, epsilon=0):
    if np.random.rand() < epsilon:
        return np.random.randint(2)
    Q_values = model.predict(state[np.newaxis])  # expected-hint HARP404
    return np.argmax(Q_values[0])


def play_one_step(env, state, epsilon):
    action = epsilon_greedy_policy(state, epsilon)
    next_state, reward, done, info = env.step(action)
    replay_memory.append((state, action, reward, next_state, done))
    return next_state, reward, done, info


def sample_experiences(batch_size):
    indices = np.random.randint(len(replay_memory), size=batch_size)
    return [np.array([replay_memory[i][field] for i in indices]) for field in range(5)]


def training_step(batch_size):
    states, actions, rewards, next_states, dones = sample_experiences(batch_size)
    next_Q_values = model.predict(next_states)  # expected-hint@aggressive HARP404
    target_Q_values = rewards + (1 - dones) * 0.95 * np.max(next_Q_values, axis=1)
    mask = tf.one_hot(actions, 2)
    with tf.GradientTape() as tape:  # expected-hint@aggressive HARP103
        all_Q_values = model(states)
        Q_values = tf.reduce_sum(all_Q_values * mask, axis=1, keepdims=True)
        loss = tf.reduce_mean(keras.losses.mean_squared_error(target_Q_values, Q_values))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))


for episode in range(600):
    obs = env.reset()
    for step in range(200):
        epsilon = max(1 - episode / 500, 0.01)
        obs, reward, done, info = play_one_step(env, obs, epsilon)
        env.render()  # drawing a frame beside a training step does not hide the step's cost
        if done:
            break
    if episode > 50:
        training_step(32)

state = env.reset()
for step in range(200):
    state, reward, done, info = play_one_step(env, state, 0)
    env.render()
    if done:
        break
