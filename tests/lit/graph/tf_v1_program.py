# A TensorFlow 1 (compat.v1) graph program: the graph-building calls become tf ops.
# RUN: %harp import --graph --no-debuginfo %s | FileCheck %s
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
x_ph = tf.placeholder(tf.float32, [None, 4])
w = tf.Variable(tf.zeros([4, 1]))
pred = tf.nn.sigmoid(tf.matmul(x_ph, w))
# CHECK: "host.call"({{.*}}qualname = "tensorflow.compat.v1.placeholder"
# CHECK: %[[MM:.*]] = "tf.MatMul"(%{{.*}}, %{{.*}}) {harp.qualname = "tensorflow.compat.v1.matmul"}
# CHECK-NEXT: %[[S:.*]] = "tf.Sigmoid"(%[[MM]]) {harp.qualname = "tensorflow.compat.v1.nn.sigmoid"}
# CHECK-NEXT: "host.from_graph"(%[[S]]) {effect = "pure", framework = "tf"
loss = tf.reduce_mean(tf.square(pred))
# CHECK: "tf.Mean"
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    # CHECK: "host.call"({{.*}}qualname = "tensorflow.compat.v1.Session.run"
    print(sess.run(loss, {x_ph: [[1.0, 2.0, 3.0, 4.0]]}))
