# A TensorFlow 2 program as one module: host ops, boundary ops and tf ops (generic form).
# RUN: %harp import --graph --no-debuginfo %s | FileCheck %s
import tensorflow as tf

x = tf.random.normal([8, 4])
w = tf.Variable(tf.zeros([4, 1]))
for step in range(3):
    logits = tf.matmul(x, w)
    # CHECK: %[[X:.*]] = "host.to_graph"(%{{.*}}) {framework = "tf"} : (!host.obj) -> tensor<*xf32>
    # CHECK: %[[W:.*]] = "host.to_graph"(%{{.*}}) {framework = "tf"} : (!host.obj) -> tensor<*xf32>
    # CHECK: %[[MM:.*]] = "tf.MatMul"(%[[X]], %[[W]]) {harp.qualname = "tensorflow.matmul"}
    # CHECK: "host.from_graph"(%[[MM]]) {effect = "pure", framework = "tf"
    loss = tf.reduce_mean(tf.square(logits - 1.0))
    # CHECK: %[[C:.*]] = "tf.Const"() {value = dense<1.000000e+00> : tensor<f32>}
    # CHECK: %[[SUB:.*]] = "tf.Sub"(%{{.*}}, %[[C]])
    # CHECK: %[[SQ:.*]] = "tf.Square"(%[[SUB]])
    # A reduction over every axis: the axes are tf.Range(0, tf.Rank(x), 1).
    # CHECK: %[[RANK:.*]] = "tf.Rank"(%[[SQ]])
    # CHECK: %[[AXES:.*]] = "tf.Range"(%{{.*}}, %[[RANK]], %{{.*}})
    # CHECK: "tf.Mean"(%[[SQ]], %[[AXES]]) {harp.qualname = "tensorflow.reduce_mean"}
    probs = tf.nn.softmax(tf.concat([logits, logits], axis=1))
    # CHECK: %[[AXIS:.*]] = "tf.Const"() {value = dense<1> : tensor<i32>}
    # CHECK: %[[CAT:.*]] = "tf.ConcatV2"(%{{.*}}, %{{.*}}, %[[AXIS]])
    # CHECK: "tf.Softmax"(%[[CAT]])
    print(float(loss))
    # CHECK: "host.call"({{.*}}qualname = "builtins.print"
