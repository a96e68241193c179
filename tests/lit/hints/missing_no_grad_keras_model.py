# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# `torch.no_grad()` is PyTorch's: a Keras model's forward whose outputs end on the host
# (an agent picking its action with `policy.numpy()`) is not a HARP303 place, whatever its
# class is made of, at any level. The same agent written with a PyTorch module is one (the
# aggressive level: acting forwards are a few percent of a step).
import numpy as np
import tensorflow as tf
import torch
from torch import nn


class KerasPolicy(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.body = tf.keras.layers.Dense(2)

    def call(self, x):
        return tf.nn.softmax(self.body(x))


class TorchPolicy(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(4, 2)

    def forward(self, x):
        return torch.softmax(self.body(x), -1)


class KerasAgent:
    def __init__(self):
        self.local_model = KerasPolicy()
        self.optimizer = tf.keras.optimizers.Adam(1e-3)

    def get_action(self, state):
        policy = self.local_model(state)  # near miss: a Keras model
        return np.random.choice(2, p=policy.numpy()[0])

    def train_model(self, states):
        with tf.GradientTape() as tape:  # expected-hint HARP103
            loss = tf.reduce_mean(self.local_model(states))
        grads = tape.gradient(loss, self.local_model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.local_model.trainable_variables))


class TorchAgent:
    def __init__(self):
        self.local_model = TorchPolicy()
        self.optimizer = torch.optim.Adam(self.local_model.parameters())

    def get_action(self, state):
        policy = self.local_model(state)  # expected-hint@aggressive HARP303
        return np.random.choice(2, p=policy.detach().numpy()[0])

    def train_model(self, states):
        loss = self.local_model(states).mean()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()


keras_agent, torch_agent = KerasAgent(), TorchAgent()
for step in range(100000):
    state = np.random.rand(1, 4).astype(np.float32)
    keras_agent.get_action(state)
    keras_agent.train_model(np.random.rand(32, 4).astype(np.float32))
    torch_agent.get_action(torch.from_numpy(state))
    torch_agent.train_model(torch.rand(32, 4))
