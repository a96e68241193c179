import tensorflow as tf

tf.random.set_seed(1)
data = [tf.random.normal([16, 4]) for _ in range(10)]
weights = tf.random.normal([4, 2])

results = []
# a helper defined where it is used
@tf.function
def project(x):
    return tf.nn.relu(tf.matmul(x, weights))
for batch in data:
    results.append(float(tf.reduce_sum(project(batch))))
print([round(r, 4) for r in results])
