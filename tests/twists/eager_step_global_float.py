# twist: the step reads a Python float rebound every step (frozen at trace time)
# expect: HARP103 declined "`temperature`, a Python number that changes every step"
# level: aggressive
import tensorflow as tf

tf.random.set_seed(1)
x = tf.random.normal([16, 2])
y = tf.reduce_sum(x, axis=1, keepdims=True)
w = tf.Variable(tf.zeros([2, 1]))
opt = tf.keras.optimizers.SGD(0.1)
temperature = 1.0
for step in range(4):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w) / temperature - y))
    grads = tape.gradient(loss, [w])
    opt.apply_gradients(zip(grads, [w]))
    temperature = temperature + 1.0
print([round(v, 4) for v in w.numpy().ravel().tolist()])
