# RUN: %check-hints %s
# TF1 as people wrote it, `import tensorflow as tf`, gets the same hints as compat.v1:
# RUN: sed -e 's/^import tensorflow.compat.v1 as tf$/import tensorflow as tf/' -e '/disable_eager_execution/d' %s > %t.py
# RUN: grep -q '^import tensorflow as tf$' %t.py && %check-hints %t.py
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
x_ph = tf.placeholder(tf.float32, [None, 4])
w = tf.Variable(tf.zeros([4, 1]))
sess = tf.Session()
sess.run(tf.global_variables_initializer())
num_steps = 1000
for step in range(num_steps):
    logits = tf.matmul(x_ph, w)  # expected-hint HARP101
    loss = tf.reduce_mean(tf.square(logits))  # expected-hint HARP101 HARP101
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)  # expected-hint HARP101
    sess.run(train, {x_ph: np.ones((2, 4))})  # eight numbers fed: not worth a hint

# Near misses: the graph built once, then run in the loop; a loop that only builds.
y = tf.matmul(x_ph, w)
for step in range(num_steps):
    sess.run(y, {x_ph: np.ones((2, 4))})
layers = []
for i in range(3):
    layers.append(tf.Variable(tf.zeros([4, 4])))
# A variable's assign method builds an op too (`global_step.assign(i).eval()`).
global_step = tf.Variable(0, trainable=False)
for i in range(num_steps):
    sess.run(y, {x_ph: np.ones((2, 4))})
    global_step.assign(i).eval(session=sess)  # expected-hint HARP101
# Near miss: the update op built once and run in the loop.
increment = global_step.assign_add(1)
for i in range(num_steps):
    sess.run([y, increment], {x_ph: np.ones((2, 4))})


# A function of the file that builds ops, called in the loop, builds them every iteration.
def generator(z):
    return tf.sigmoid(tf.matmul(z, w))


def discriminator_loss(z):
    return tf.reduce_mean(generator(z))  # through a second function


def batch_of(n):
    return np.ones((n, 4))  # numpy only: builds nothing


for i in range(num_steps):
    sess.run(generator(x_ph), {x_ph: batch_of(2)})  # expected-hint HARP101
    sess.run(discriminator_loss(x_ph), {x_ph: batch_of(2)})  # expected-hint HARP101
# Near miss: built once by the function, outside the loop.
sample = generator(x_ph)
for i in range(num_steps):
    sess.run(sample, {x_ph: batch_of(2)})


# A function that builds an op and runs it itself, called only in the loop: the hint is on
# the construction, inside the function.
def sync_target(session):
    session.run(tf.assign(w, tf.zeros([4, 1])))  # expected-hint HARP101


for i in range(num_steps):
    sess.run(y, {x_ph: batch_of(2)})
    if i % 2 == 0:
        sync_target(sess)


# Near miss: a variable re-initialized once per target class, beside an inner loop of
# training steps that runs the graph: the graph grows by one op per class, not per step
# (the aggressive level still reports it).
def optimize(steps):
    for _ in range(steps):
        sess.run(y, {x_ph: batch_of(2)})


def find_all(num_classes):
    for cls in range(num_classes):
        sess.run(tf.variables_initializer([w]))
        optimize(300)


# Near miss: a demo's loop of ten runs that nothing repeats builds ten ops in all, not one
# per training step (the aggressive level still reports it).
for _ in range(10):
    sess.run(tf.add(w, w))
# The same ten-iteration loop in a function a training loop calls runs on every step.


def refresh(session):
    for _ in range(10):
        session.run(tf.add(w, w))  # expected-hint HARP101


for i in range(num_steps):
    sess.run(y, {x_ph: batch_of(2)})
    refresh(sess)
