# RUN: %check-hints %s
import tensorflow as tf

w = tf.Variable(tf.random.normal([4, 1]))
x = tf.random.normal([16, 4])
opt = tf.keras.optimizers.SGD(0.1)
losses = []
for step in range(5):
    with tf.GradientTape() as tape:  # expected-hint HARP103
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w)))
    grads = tape.gradient(loss, [w])
    opt.apply_gradients(zip(grads, [w]))
    losses.append(loss.numpy())  # expected-hint HARP201
    if float(loss) < 0.01:  # expected-hint HARP201
        break

# After the loop, converting once is the refactoring harp suggests: no hint.
print(tf.reduce_mean(tf.stack(losses)).numpy())
