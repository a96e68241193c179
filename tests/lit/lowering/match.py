# RUN: %harp import %s --no-debuginfo | FileCheck %s

match command:
    case ["go", direction] if direction:
        move(direction)
    case {"key": value, **rest}:
        use(value, rest)
    case _:
        pass
# CHECK: "host.match"(%{{.*}}) ({
# CHECK-NEXT: "host.case"() ({
# CHECK-NEXT: ^bb0(%[[G:.*]]: !host.obj):
# CHECK-NEXT: "host.store"(%[[G]]) {name = "direction"}
# CHECK: "hostcf.condition"
# CHECK: }, {
# CHECK-NEXT: ^bb0(%[[D:.*]]: !host.obj):
# CHECK-NEXT: "host.store"(%[[D]]) {name = "direction"}
# CHECK: }) {captures = ["direction"], pattern = "[\22go\22, direction]"}
# CHECK: {captures = ["value", "rest"], pattern = "{\22key\22: value, **rest}"}
# CHECK: {captures = [], pattern = "_"}
