import tensorflow as tf

tf.random.set_seed(2)
t = tf.random.normal([300, 8])
scaled = []
for i in range(t.shape[0]):
    scaled.append(tf.nn.relu(t[i]) * 3.0 - 1.0)
stacked = tf.stack(scaled)
print(round(float(tf.reduce_sum(stacked)), 3), stacked.shape)
