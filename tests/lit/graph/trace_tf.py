# --trace on a Keras model and a tf.function: tf ops in generic form, linked to the calls.
# RUN: %harp import --no-debuginfo %S/../Inputs/trace/keras_step.py --trace %S/../Inputs/trace/keras_trace.toml | FileCheck %s
# CHECK: "host.call"({{.*}}harp.graph = @model
# CHECK: "host.for"
# CHECK: "host.call"({{.*}}harp.compiled = "tensorflow.function"{{.*}}harp.graph = @score
# CHECK: func.func private @score
# CHECK-SAME: harp.op_count
# CHECK: "tf.MatMul"
# CHECK: "tf.Softmax"
# CHECK: func.func private @model
# CHECK: "tf.Relu"
