# RUN: %check-hints %s
import tensorflow as tf
import torch

x = torch.randn(100)
out = torch.zeros(100)
for i in range(len(x)):  # expected-hint HARP401
    out[i] = x[i] * 2 + 1
for i in range(x.shape[0]):  # expected-hint HARP401
    out[i] = torch.sigmoid(x[i])
total = 0.0
for v in x:  # expected-hint HARP401
    total = total + v * v

t = tf.random.normal([8])
scaled = []
for i in range(len(t)):  # expected-hint HARP401
    scaled.append(t[i] * 2.0)

# Near misses: a loop over a Python list; range(len(...)) of a list.
names = ["a", "b"]
for i in range(len(names)):
    print(names[i])
for n in names:
    print(n + "!")

# A loop whose elements are only indices into host data (rows of a numpy array gathered
# into a batch): a host copy per element, no framework op to vectorize.
import numpy as np

data = np.arange(1000)
ix = torch.randint(990, (12,))
rows = torch.stack([torch.from_numpy(data[i:i + 8].astype(np.int64)) for i in ix])
# But an element used in tensor arithmetic besides indexing is still one op per element.
shifted = [torch.from_numpy(data[i:i + 8]) + i for i in ix]  # expected-hint HARP401
