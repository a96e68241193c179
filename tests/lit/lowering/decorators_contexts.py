# RUN: %harp import %s --no-debuginfo | FileCheck %s
# Decorators and context managers the analyses care about are recognised by name.

import tensorflow as tf
import tensorflow.compat.v1 as tf1
import torch

@tf.function(reduce_retracing=True)
def train_step(x):
    return tf.reduce_sum(x)
# CHECK: harp.decorators = ["tensorflow.function"]{{.*}}sym_name = "train_step"

@torch.no_grad()
def evaluate(model, x):
    return model(x)
# CHECK: harp.decorators = ["torch.no_grad"]{{.*}}sym_name = "evaluate"

@torch.compile
def fused(x):
    return torch.relu(x) * 2
# CHECK: harp.decorators = ["torch.compile"]{{.*}}sym_name = "fused"

with torch.inference_mode():
    pass
# CHECK: {harp.contexts = ["torch.inference_mode"]}
with tf.GradientTape() as tape:
    pass
# CHECK: {harp.contexts = ["tensorflow.GradientTape"]}
with tf.device("/cpu:0"):
    pass
# CHECK: {harp.contexts = ["tensorflow.device"]}
with tf1.Session() as sess:
    out = sess.run(fetches)
# CHECK: "host.call"{{.*}}effect = "run"{{.*}}method = "run", qualname = "tensorflow.compat.v1.Session.run"
# CHECK: {harp.contexts = ["tensorflow.compat.v1.Session"]}

z = train_step(tf.ones([2]))
# A tf.function keeps what the function returns.
# CHECK: harp.kind = "tensor", harp.kind_reason = "train_step returns a tensor"
