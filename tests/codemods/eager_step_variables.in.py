import tensorflow as tf

tf.random.set_seed(1)
x = tf.random.normal([64, 4])
y = tf.matmul(x, [[1.0], [2.0], [-1.0], [0.5]])
w = tf.Variable(tf.zeros([4, 1]))
b = tf.Variable(0.0)
opt = tf.keras.optimizers.SGD(0.05)


def fit(steps):
    for _ in range(steps):
        with tf.GradientTape() as tape:
            pred = tf.matmul(x, w) + b
            loss = tf.reduce_mean(tf.square(pred - y))
        dw, db = tape.gradient(loss, [w, b])
        opt.apply_gradients([(dw, w), (db, b)])
    return loss


print(round(float(fit(100)), 5), [round(v, 4) for v in w.numpy().ravel().tolist()])
