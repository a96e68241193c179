"""k-means clustering in TensorFlow 2 (eager) of points kept as a NumPy array, assigned in
chunks to bound the memory of the distance matrix."""

import os

import numpy as np
import tensorflow as tf

SCALE = float(os.environ.get("HARP_BENCH_SCALE", "1"))
rng = np.random.default_rng(15)
k, d, chunk = 8, 16, 128
centers = rng.normal(scale=6.0, size=(k, d))
data = centers[rng.integers(0, k, size=100000)] + rng.normal(size=(100000, d))

centroids = tf.constant(data[:k], dtype=tf.float32)
for iteration in range(int(12 * SCALE)):
    points = tf.convert_to_tensor(data, dtype=tf.float32)
    assignment = tf.zeros([0], dtype=tf.int64)
    for start in range(0, len(data), chunk):
        block = points[start:start + chunk]
        dists = tf.reduce_sum(tf.square(block[:, None, :] - centroids[None]), axis=2)
        assignment = tf.concat([assignment, tf.argmin(dists, axis=1)], axis=0)
    sums = tf.math.unsorted_segment_sum(points, assignment, k)
    counts = tf.math.unsorted_segment_sum(tf.ones_like(points[:, :1]), assignment, k)
    centroids = sums / tf.maximum(counts, 1.0)

inertia = tf.reduce_sum(tf.square(points - tf.gather(centroids, assignment)))
print(f"inertia {float(inertia):.1f}")
print("sizes", sorted(np.bincount(assignment.numpy(), minlength=k).tolist()))
