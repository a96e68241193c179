import tensorflow as tf

tf.random.set_seed(3)
t = tf.random.normal([300, 8])
gain = tf.random.normal([8])
scaled = []
scaled.extend(tf.unstack(tf.nn.relu(t * gain) - 1.0))
stacked = tf.stack(scaled)
print(round(float(tf.reduce_sum(stacked)), 3), stacked.shape)
