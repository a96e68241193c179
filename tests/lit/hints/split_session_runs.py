# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
x_ph = tf.placeholder(tf.float32, [None, 4])
w = tf.Variable(tf.zeros([4, 1]))
loss = tf.reduce_mean(tf.matmul(x_ph, w))
train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
acc = tf.reduce_max(tf.matmul(x_ph, w))
sess = tf.Session()
steps = 100
# An evaluation loop: nothing changes the variables, so the runs merge into one.
for step in range(steps):
    batch = np.random.rand(2, 4)
    l = sess.run(loss, {x_ph: batch})
    a = sess.run(acc, {x_ph: batch})  # expected-hint@aggressive HARP104

while True:
    l = sess.run(loss, feed_dict={x_ph: np.random.rand(2, 4)})
    a = sess.run(acc, feed_dict={x_ph: np.random.rand(2, 4)})  # expected-hint@aggressive HARP104
    break


def evaluate(batches):
    for batch in batches:
        feed = {x_ph: batch}
        total = sess.run(loss, feed_dict=feed)
        best = sess.run(fetches=acc, feed_dict=feed)  # expected-hint@aggressive HARP104
    return total, best


# Near misses: one run with all fetches; runs in different loops; a run that trains
# before one that reads the updated variables (merged, the loss would be the one before
# the update); a handful of iterations.
for step in range(steps):
    _, l = sess.run([train, loss], {x_ph: np.random.rand(2, 4)})
for step in range(steps):
    sess.run(train, {x_ph: np.random.rand(2, 4)})
for step in range(steps):
    batch = np.random.rand(2, 4)
    sess.run(train, {x_ph: batch})
    l = sess.run(loss, {x_ph: batch})
for step in range(3):
    l = sess.run(loss, {x_ph: np.random.rand(2, 4)})
    a = sess.run(acc, {x_ph: np.random.rand(2, 4)})  # expected-hint@aggressive HARP104


# In a method an agent's loop calls on every step; `.eval(feed)` is a run too.
class Agent:
    def __init__(self):
        self.sess = tf.Session()

    def learn(self, batch):
        self.sess.run(train, {x_ph: batch})
        l = loss.eval({x_ph: batch}, session=self.sess)
        l2 = loss.eval({x_ph: batch * 2}, session=self.sess)  # expected-hint@aggressive HARP104
        return l, l2

    def learn_from_target(self, batch):
        # near miss: the second run feeds what the first fetched, through a copy
        q = self.sess.run(acc, {x_ph: batch})
        target = q.copy()
        target[0] = 0.0
        self.sess.run(train, {x_ph: batch + target})


agent = Agent()
for episode in range(steps):
    agent.learn(np.random.rand(2, 4))
    agent.learn_from_target(np.random.rand(2, 4))

# A guard that keeps a quarter of the iterations is most of them; every 100th is not.
for step in range(steps):
    batch = np.random.rand(2, 4)
    if step % 4 == 0:
        l = sess.run(loss, {x_ph: batch})
        a = sess.run(acc, {x_ph: batch})  # expected-hint@aggressive HARP104
    if step % 100 == 0:
        l = sess.run(loss, {x_ph: batch})
        a = sess.run(acc, {x_ph: batch})  # expected-hint@aggressive HARP104
