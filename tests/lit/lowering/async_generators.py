# RUN: %harp import %s --no-debuginfo | FileCheck %s

async def pump(source, lock):
    async for item in source:
        yield item
    async with lock:
        await flush()


def relay():
    yield from other()
# CHECK: "host.for"
# CHECK: "host.yield_value"
# CHECK: }) {async, harp.mutates = ["item"]
# CHECK: "host.with"
# CHECK: "host.await"
# CHECK: }) {async}
# CHECK: async, harp.effects = ["unknown"], sym_name = "pump"
# CHECK: "host.yield_value"(%{{.*}}) {from = true}
# CHECK: sym_name = "relay"
