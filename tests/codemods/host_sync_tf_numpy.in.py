import tensorflow as tf

tf.random.set_seed(0)
w = tf.random.normal([3, 1])
total = 0.0
for step in range(4):
    x = tf.random.normal([2, 3])
    total += tf.reduce_sum(tf.matmul(x, w)).numpy()
print(float(total))
