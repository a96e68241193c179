# RUN: %check-hints %s
# RUN: not %check-hints --level aggressive %s 2>&1 | FileCheck --check-prefix=AGGRESSIVE %s
# A library that names itself (`d2l = sys.modules[__name__]`, as d2l does) and calls its
# own helpers through that name: `lib.grad_norm(grads)` runs this file's `grad_norm` on
# every training step, so its per-gradient sync is a per-step cost.
# AGGRESSIVE: host_sync_module_alias.py:40: unexpected HARP201
import sys

import tensorflow as tf

lib = sys.modules[__name__]


def grad_norm(grads):
    total = 0.0
    for g in grads:
        square = g * g
        total += square.numpy()  # expected-hint HARP201
    return total ** 0.5


def train(model, data, opt):
    for x, y in data:
        with tf.GradientTape() as tape:  # expected-hint HARP103
            loss = tf.reduce_mean((model(x) - y) ** 2)
        grads = tape.gradient(loss, model.trainable_variables)
        print(lib.grad_norm(grads))
        opt.apply_gradients(zip(grads, model.trainable_variables))


# Near miss: `helpers` is another module, whose `norms` harp cannot see; the loop of this
# file's `norms` runs only as often as something calls it, which nothing here does.
helpers = sys.modules["helpers"]


def norms(grads):
    total = 0.0
    for g in grads:
        square = g * g
        total += square.numpy()
    return total ** 0.5


def train_other(model, data, opt):
    for x, y in data:
        with tf.GradientTape() as tape:  # expected-hint HARP103
            loss = tf.reduce_mean((model(x) - y) ** 2)
        grads = tape.gradient(loss, model.trainable_variables)
        print(helpers.norms(grads))
        opt.apply_gradients(zip(grads, model.trainable_variables))
