"""An optimizer built by hand for a TF1 program: nothing here names a TF1-only API."""
import tensorflow as tf


def adam(params, cost, lr=3e-4, mom1=0.9, mom2=0.999, epsilon=1e-8):
    grads = tf.gradients(cost, params)
    mom2 = tf.maximum(0., 1. - (1 - mom2))
    t = tf.Variable(1., "adam_t")
    lr_t = lr * tf.sqrt(1. - tf.pow(mom2, t)) / (1. - tf.pow(mom1, t))
    updates = [t.assign_add(1)]
    for p, g in zip(params, grads):
        mg = tf.Variable(tf.zeros(p.get_shape()), p.name + "_adam_mg")
        v = tf.Variable(tf.zeros(p.get_shape()), p.name + "_adam_v")
        v_t = mom1 * v + (1. - mom1) * g
        mg_t = mom2 * mg + (1. - mom2) * tf.square(g)
        step = lr_t * v_t / (tf.sqrt(mg_t) + epsilon)
        updates += [v.assign(v_t), mg.assign(mg_t), p.assign(p - step)]
    return tf.group(*updates)
