# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# Tracing a step into a `tf.function` costs a fraction of a second once; it pays when the
# step runs more than about a hundred times. A script whose loops fix the number of steps
# below that (a tutorial's 40 steps on a toy model) gains nothing worth a change: the
# aggressive level's. A loop whose steps the code does not bound, or bounds above that, is
# reported.
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
opt = tf.keras.optimizers.SGD(0.1)
x = tf.random.normal((32, 4))
y = tf.random.normal((32, 1))


def training_step(inputs, targets):
    with tf.GradientTape() as tape:  # expected-hint@aggressive HARP103
        loss = tf.reduce_mean((model(inputs) - targets) ** 2)
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))
    return loss


for step in range(40):
    loss = training_step(x, y)

for epoch in range(10):
    for step in range(1000):
        with tf.GradientTape() as tape:  # expected-hint HARP103
            loss = tf.reduce_mean((model(x) - y) ** 2)
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))

for epoch in range(3):
    for step in range(8):
        with tf.GradientTape() as tape:  # expected-hint@aggressive HARP103
            loss = tf.reduce_mean((model(x) - y) ** 2)
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
