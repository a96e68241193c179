import tensorflow as tf

tf.random.set_seed(2)
t = tf.random.normal([300, 8])
scaled = []
scaled.extend(tf.unstack(tf.nn.relu(t) * 3.0 - 1.0))
stacked = tf.stack(scaled)
print(round(float(tf.reduce_sum(stacked)), 3), stacked.shape)
