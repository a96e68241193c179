# twist: the step draws numpy random numbers (a tf.function freezes them at trace time)
# expect: HARP103 declined "draws random numbers with `np.random.normal`"
# level: aggressive
import numpy as np
import tensorflow as tf

np.random.seed(0)
tf.random.set_seed(1)
x = tf.random.normal([16, 2])
y = tf.reduce_sum(x, axis=1, keepdims=True)
w = tf.Variable(tf.zeros([2, 1]))
opt = tf.keras.optimizers.SGD(0.1)
for step in range(4):
    with tf.GradientTape() as tape:
        noise = np.random.normal(size=(16, 1)).astype("float32")
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + noise - y))
    grads = tape.gradient(loss, [w])
    opt.apply_gradients(zip(grads, [w]))
print([round(v, 4) for v in w.numpy().ravel().tolist()])
