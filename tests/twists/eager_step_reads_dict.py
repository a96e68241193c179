# twist: the step reads a dict entry that changes between steps
# expect: HARP103 declined "an element of `hp`"
# level: aggressive
import tensorflow as tf

tf.random.set_seed(1)
x = tf.random.normal([16, 2])
y = tf.reduce_sum(x, axis=1, keepdims=True)
w = tf.Variable(tf.zeros([2, 1]))
opt = tf.keras.optimizers.SGD(0.1)
hp = {"l2": 0.0}
for step in range(4):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - y)) + hp["l2"] * tf.reduce_sum(w * w)
    grads = tape.gradient(loss, [w])
    opt.apply_gradients(zip(grads, [w]))
    hp["l2"] = hp["l2"] + 1.0
print([round(v, 4) for v in w.numpy().ravel().tolist()])
