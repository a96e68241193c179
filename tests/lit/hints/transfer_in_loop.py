# RUN: %check-hints %s
import numpy as np
import tensorflow as tf
import torch

features = np.random.rand(64, 8).astype("float32")
labels = np.random.rand(64, 1).astype("float32")
device = torch.device("cpu")
w = torch.randn(8, 1)
for epoch in range(5):
    x = torch.from_numpy(features)  # expected-hint HARP202
    y = torch.tensor(labels)  # expected-hint HARP202
    w_dev = w.to(device)  # expected-hint HARP202
    pred = x @ w_dev
    t = tf.convert_to_tensor(features)  # expected-hint HARP202

# Near misses: the data changes every iteration, or the transfer is outside the loop.
x_once = torch.from_numpy(features)
for batch in np.array_split(features, 4):
    xb = torch.from_numpy(batch)  # the loop variable: a new batch each time
for step in range(3):
    noise = torch.randn(8).to(device)  # random: a new value each time
    features = features * 0.5
    xs = torch.tensor(features)  # features is rewritten in the loop
