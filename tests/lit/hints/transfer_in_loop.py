# RUN: %check-hints %s
import numpy as np
import tensorflow as tf
import torch

features = np.random.rand(64, 8).astype("float32")
labels = np.random.rand(64, 1).astype("float32")
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
w = torch.randn(8, 1)
steps = 500
for step in range(steps):
    y = torch.tensor(labels)  # expected-hint HARP202
    w_dev = w.to(device)  # expected-hint HARP202
    ones = torch.ones(64, 1).to(device)  # expected-hint@aggressive HARP202 (64 numbers: a small share of a step)
    pred = torch.from_numpy(features).to(device) @ w_dev  # expected-hint HARP202
    t = tf.convert_to_tensor(features)  # expected-hint HARP202
    zero = torch.tensor([0.0]).to(device)  # expected-hint@aggressive HARP202 (one number)
    half = torch.tensor([[0.5], [0.5]])  # expected-hint@aggressive HARP202 (two numbers)

# Near misses: the data changes every iteration, or the transfer is outside the loop.
x_once = torch.from_numpy(features)
for batch in np.array_split(features, 4):
    xb = torch.from_numpy(batch)  # the loop variable: a new batch each time
for step in range(steps):
    noise = torch.randn(8).to(device)  # random, not invariant (HARP205 at the aggressive level)
    view = torch.from_numpy(features)  # shares the array's memory: nothing is copied
    features = features * 0.5
    xs = torch.tensor(features)  # features is rewritten in the loop
# Once per epoch: the epoch loop runs an inner loop over the batches.
model = torch.nn.Linear(8, 1).to(device)
with torch.no_grad():
    for epoch in range(steps):
        w_epoch = w.to(device)
        for step in range(steps):
            scale = torch.tensor(labels)  # expected-hint HARP202
            pred = model(torch.randn(4, 8, device=device)) * scale.sum()


# Receive buffers, one per element of a list (as `all_gather` takes them): each iteration's
# tensor is its own object, and made once they would all be the same tensor.
def gather_sizes(world, local):
    sizes = [torch.tensor([0], device="cuda") for _ in range(world)]
    counts = [torch.IntTensor([0]).to("cuda") for _ in range(world)]
    rows = []
    for _ in range(world):
        rows.append(torch.zeros(8).to("cuda"))
    return sizes, counts, rows


for step in range(1000):
    gather_sizes(4, step)
