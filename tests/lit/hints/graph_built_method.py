# RUN: %check-hints %s
# TF1 agents keep their session and placeholders on `self`: `self.sess` assigned once in
# `__init__` is the tf.Session there, so `self.sess.run` runs the graph, and a method that
# builds ops and runs them, called per environment step, grows the graph.
import numpy as np
import remote_sessions
import tensorflow as tf


class Agent:
    def __init__(self):
        self.sess = tf.Session()
        self.x = tf.placeholder(tf.float32, [None, 4])
        self.w = tf.Variable(tf.zeros([4, 2]))
        self.q = tf.matmul(self.x, self.w)  # built once: fine

    def act(self, state):
        q = tf.matmul(self.x, self.w)  # expected-hint HARP101
        return np.argmax(self.sess.run(q, {self.x: state}))

    def act_well(self, state):
        return np.argmax(self.sess.run(self.q, {self.x: state}))


class Swapper:
    # `self.sess` is assigned in two places, both sessions: the second by a helper the
    # module defines below the class, which returns a tf.Session.
    def __init__(self):
        self.sess = tf.Session()
        self.x = tf.placeholder(tf.float32, [None, 4])

    def reset(self):
        self.sess = make_session()

    def act(self, state):
        return self.sess.run(tf.reduce_sum(self.x), {self.x: state})  # expected-hint HARP101


class Remote:
    # Near miss: `self.sess` is a session in one place and what a library harp does not
    # know returns in another, so harp does not know it is the session (the
    # graph-building method below is not reported).
    def __init__(self):
        self.sess = tf.Session()
        self.x = tf.placeholder(tf.float32, [None, 4])

    def reset(self):
        self.sess = remote_sessions.connect()

    def act(self, state):
        return self.sess.run(tf.reduce_sum(self.x), {self.x: state})


def make_session():
    return tf.Session()


agent = Agent()
swapper = Swapper()
remote = Remote()
agent.sess.run(tf.global_variables_initializer())
for step in range(1000):
    agent.act(np.zeros([1, 4]))
    agent.act_well(np.zeros([1, 4]))
for step in range(1000):
    swapper.act(np.zeros([1, 4]))
for step in range(1000):
    remote.act(np.zeros([1, 4]))
