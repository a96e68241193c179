# twist: TF int32 `.numpy()` added into a float 0.0 (a tensor would not mix the dtypes)
# expect: HARP201 unsafe "is a floating tensor"
# level: aggressive
import tensorflow as tf

model = tf.keras.layers.Lambda(lambda v: v * 2)
total = 0.0
for i in range(64):
    counts = model(tf.constant([i, i + 1, 2], dtype=tf.int32))
    total += tf.reduce_sum(counts).numpy()
print(total)
