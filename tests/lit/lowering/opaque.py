# RUN: %harp import %s --no-debuginfo | FileCheck %s
# What the frontend does not lower is an opaque op with its location and effect unknown.

from os import *
# CHECK: {effect = "unknown", kind = "ImportFrom", reason = "from os import *"}
