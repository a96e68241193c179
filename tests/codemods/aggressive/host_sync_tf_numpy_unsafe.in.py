import tensorflow as tf

tf.random.set_seed(0)
w = tf.random.normal([3, 1])
total = 0.0
steps = 20
for step in range(steps):
    x = tf.random.normal([2, 3])
    total += tf.reduce_sum(tf.matmul(x, w)).numpy()
print(float(total))
