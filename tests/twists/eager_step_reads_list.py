# twist: the step reads an element of a Python list that changes between steps
# expect: HARP103 declined "an element of `scales`"
# level: aggressive
import tensorflow as tf

tf.random.set_seed(1)
x = tf.random.normal([16, 2])
y = tf.reduce_sum(x, axis=1, keepdims=True)
w = tf.Variable(tf.zeros([2, 1]))
opt = tf.keras.optimizers.SGD(0.1)
scales = [1.0]
for step in range(4):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w) * scales[0] - y))
    grads = tape.gradient(loss, [w])
    opt.apply_gradients(zip(grads, [w]))
    scales[0] = scales[0] * 0.5
print([round(v, 4) for v in w.numpy().ravel().tolist()])
