# RUN: %check-hints %s
# RUN: not %check-hints --level aggressive %s 2>&1 | FileCheck --check-prefix=AGGRESSIVE %s
# AGGRESSIVE: host_sync_tf.py:29: unexpected HARP201
import tensorflow as tf

w = tf.Variable(tf.random.normal([4, 1]))
x = tf.random.normal([16, 4])
opt = tf.keras.optimizers.SGD(0.1)
steps = 200


def step():
    with tf.GradientTape() as tape:  # expected-hint HARP103
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w)))
    grads = tape.gradient(loss, [w])
    opt.apply_gradients(zip(grads, [w]))
    return loss


losses = []
for _ in range(steps):
    # TensorFlow places ops on a GPU when it has one: .numpy() waits for it.
    # One wait per step: the aggressive level's (a few percent of a step at most).
    losses.append(step().numpy())  # expected-hint@aggressive HARP201

# An early stop needs the value on the host: reported only at the aggressive level.
for _ in range(steps):
    loss = step()
    if float(loss) < 0.01:
        break

# After the loop, converting once is the refactoring harp suggests: no hint.
print(tf.reduce_mean(tf.stack(losses)).numpy())
