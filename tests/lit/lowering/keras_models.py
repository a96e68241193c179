# RUN: %harp import %s --no-debuginfo | FileCheck %s
# Keras Model and Layer subclasses are recognised; their call and __init__ are lowered.

import tensorflow as tf

class Block(tf.keras.layers.Layer):
    def __init__(self, units):
        super().__init__()
        self.dense = tf.keras.layers.Dense(units)

    def call(self, x):
        return tf.nn.relu(self.dense(x))
# CHECK: "host.getattr"(%{{.*}}) {attr = "Layer", qualname = "tensorflow.keras.layers.Layer"}
# CHECK: "host.load"() {harp.framework = "tf", harp.kind = "module", harp.kind_reason = "self of a module subclass", harp.kind_status = "proved", name = "self"}
# CHECK: sym_name = "call"
# CHECK: {sym_name = "Block"}

class Net(tf.keras.Model):
    def call(self, x):
        return x
# CHECK: {attr = "Model", qualname = "tensorflow.keras.Model"}

net = Net()
# CHECK: harp.kind = "module", harp.kind_reason = "Net subclasses a tf module class"
y = net(tf.ones([1, 2]))
# CHECK: harp.kind = "tensor", harp.kind_reason = "calling net (a tf module) is assumed to return a tensor", harp.kind_status = "speculated"
