# RUN: %harp import %s --no-debuginfo | FileCheck %s

try:
    for x in xs:
        risky(x)
except ValueError:
    pass
finally:
    cleanup()
# CHECK: "host.opaque"() ({
# CHECK-NEXT: "host.opaque"() ({
# CHECK: "host.for"
# CHECK: }) {effect = "unknown", kind = "Try.body"}
# CHECK: {effect = "unknown", kind = "Try.finalbody"}
# CHECK: {effect = "unknown", kind = "ExceptHandler"}
# CHECK: }) {effect = "unknown", kind = "Try"}

squares = [v * v for v in range(3)]
# CHECK: %[[COMP:.*]] = "host.opaque"() ({
# CHECK-NEXT: }) {effect = "unknown", kind = "ListComp"}
# CHECK-NEXT: "host.store"(%[[COMP]]) {name = "squares"}
from os import *
# CHECK: {effect = "unknown", kind = "ImportFrom", reason = "from os import *"}
