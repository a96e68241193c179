# RUN: %check-hints %s
import numpy as np
import torch

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = torch.nn.Linear(4, 2).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = [(torch.randn(8, 4), torch.randn(8, 2)) for _ in range(100)]

history = []
for x, y in loader:
    out = model(x.to(device))
    mse = ((out - y.to(device)) ** 2).mean()
    mae = (out - y.to(device)).abs().mean()
    mse.backward()
    opt.step()
    opt.zero_grad()
    pair = torch.tensor([mse, mae])  # expected-hint HARP206
    history.append(np.array([out.max(), out.min()]))  # expected-hint HARP206
    spread = torch.FloatTensor((out.std(), out.mean()))  # expected-hint HARP206

# Near misses: numbers, not tensors; stacked; at a log interval; a handful of iterations.
for step, (x, y) in enumerate(loader):
    out = model(x.to(device))
    loss = ((out - y.to(device)) ** 2).mean()
    loss.backward()
    numbers = torch.tensor([1.0, 2.0, float(step)])
    stacked = torch.stack([loss, out.mean()])
    if step % 50 == 0:
        logged = torch.tensor([loss, out.mean()])
for trial in range(3):
    out = model(torch.randn(8, 4, device=device))
    summary = torch.tensor([out.mean(), out.std()])

# TensorFlow (eager): tf.constant / np.array of tensors per step; tf.stack is the near miss.
import tensorflow as tf  # noqa: E402

net = tf.keras.Sequential([tf.keras.layers.Dense(2)])
tf_opt = tf.keras.optimizers.SGD(0.1)
batches = [tf.random.normal([8, 4]) for _ in range(100)]
for xb in batches:
    with tf.GradientTape() as tape:  # expected-hint HARP103
        out = net(xb)
        loss = tf.reduce_mean(out ** 2)
    tf_opt.apply_gradients(zip(tape.gradient(loss, net.trainable_variables),
                               net.trainable_variables))
    stats = tf.constant([loss, tf.reduce_max(out)])  # expected-hint HARP206
    history.append(np.array([loss, tf.reduce_min(out)]))  # expected-hint HARP206
    stacked = tf.stack([loss, tf.reduce_max(out)])
