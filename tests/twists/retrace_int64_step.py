# twist: the step counter is assigned to an int64 variable: a Python int converts to
# int64, an int32 tensor from `tf.constant(step)` does not
# expect: HARP102 unsafe "--unsafe-fixes"
import tensorflow as tf

counter = tf.Variable(0, dtype=tf.int64)


@tf.function
def tick(step):
    counter.assign(step)
    return tf.cast(counter, tf.float32) * 0.5


total = 0.0
for step in range(6):
    total += float(tick(step))
print(total, int(counter.numpy()))
