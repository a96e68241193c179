# RUN: %check-hints %s
import tensorflow as tf

w = tf.Variable(tf.zeros([4, 1]))
x, y = tf.ones([8, 4]), tf.ones([8, 1])
opt = tf.keras.optimizers.SGD(0.1)
for epoch in range(1000):
    with tf.GradientTape() as tape:  # expected-hint HARP103
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - y))
    opt.apply_gradients(zip(tape.gradient(loss, [w]), [w]))

def train(data):
    for xb, yb in data:
        with tf.GradientTape() as tape:  # expected-hint HARP103
            loss = tf.reduce_mean(tf.square(tf.matmul(xb, w) - yb))
        opt.apply_gradients(zip(tape.gradient(loss, [w]), [w]))

step = 0
while step < 3:
    step += 1
    with tf.GradientTape() as tape:  # expected-hint HARP103
        loss = tf.reduce_sum(w)
    opt.apply_gradients(zip(tape.gradient(loss, [w]), [w]))

# Near misses: the step compiled with tf.function; a tape block that syncs to print.
@tf.function
def compiled_step():
    for _ in tf.range(2):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(w)
    return loss

for epoch in range(3):
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(w)
        print(loss.numpy())  # a sync that only feeds a print: a logging cost
