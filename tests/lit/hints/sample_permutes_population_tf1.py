# RUN: %check-hints %s
# A TF1 loop trains when a run fetches what an optimizer's `minimize` made (bound once,
# here as `self.train_op`): a batch drawn by shuffling the whole data set there is per step.
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
TRAIN_SIZE = 150_000
images = np.random.rand(TRAIN_SIZE, 784).astype(np.float32)


class Model:
    def __init__(self):
        self.x = tf.placeholder(tf.float32, [None, 784])
        w = tf.Variable(tf.zeros([784, 10]))
        self.loss = tf.reduce_mean(tf.matmul(self.x, w) ** 2)
        self.train_op = tf.train.AdamOptimizer(1e-3).minimize(self.loss)

    def fit(self, sess, steps):
        for step in range(steps):
            idx = np.random.choice(TRAIN_SIZE, 64, replace=False)  # expected-hint HARP505
            sess.run([self.loss, self.train_op], {self.x: images[idx]})


def evaluate(sess, model):  # near miss: no run trains here
    for step in range(100):
        idx = np.random.choice(TRAIN_SIZE, 64, replace=False)
        sess.run(model.loss, {model.x: images[idx]})


with tf.Session() as sess:
    model = Model()
    sess.run(tf.global_variables_initializer())
    model.fit(sess, 10000)
    evaluate(sess, model)
