import tensorflow as tf

w = tf.Variable(tf.ones([3]))
opt = tf.keras.optimizers.SGD(0.1)
history = []
for step in range(200):
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(w * w)
        history.append(loss)
    opt.apply_gradients(zip(tape.gradient(loss, [w]), [w]))
for step in range(200):
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(w * w) * step
    opt.apply_gradients(zip(tape.gradient(loss, [w]), [w]))
print([round(float(h), 4) for h in history], round(float(loss), 4))
