# RUN: %harp import %s --no-debuginfo | FileCheck %s

import tensorflow as tf
# CHECK: %[[TF:.*]] = "host.import"() {module = "tensorflow", qualname = "tensorflow"}
# CHECK-NEXT: "host.store"(%[[TF]]) {name = "tf"}
import tensorflow.compat.v1 as tf1
# CHECK: "host.import"() {module = "tensorflow.compat.v1", qualname = "tensorflow.compat.v1"}
# CHECK-NEXT: "host.store"({{.*}}) {name = "tf1"}
from torch import nn
# CHECK: "host.import"() {module = "torch", name = "nn", qualname = "torch.nn"}
# CHECK-NEXT: {name = "nn"}
from torch.nn import functional as F
# CHECK: "host.import"() {module = "torch.nn", name = "functional", qualname = "torch.nn.functional"}
# CHECK-NEXT: {name = "F"}
import os.path
# CHECK: "host.import"() {module = "os", qualname = "os"}
# CHECK-NEXT: {name = "os"}
from . import sibling
# CHECK: "host.import"() {level = 1 : i64, module = "", name = "sibling"}

x = tf1.Session()
# CHECK: "host.load"() {name = "tf1", qualname = "tensorflow.compat.v1"}
# CHECK-NEXT: "host.getattr"({{.*}}) {attr = "Session", qualname = "tensorflow.compat.v1.Session"}
y = F.relu(x)
# CHECK: "host.getattr"({{.*}}) {attr = "relu", qualname = "torch.nn.functional.relu"}
# CHECK: "host.call"{{.*}}effect = "pure"{{.*}}qualname = "torch.nn.functional.relu"
