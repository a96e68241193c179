"""Feature statistics of a batch of records after squashing outliers, row by row."""

import os

import tensorflow as tf

SCALE = float(os.environ.get("HARP_BENCH_SCALE", "1"))
tf.random.set_seed(14)
records = tf.random.normal([int(30000 * SCALE), 16]) * 3.0 + 1.0
center = float(tf.reduce_mean(records))
spread = float(tf.math.reduce_std(records))

feature_sum = tf.zeros([16])
for i in range(records.shape[0]):
    feature_sum += tf.math.tanh((records[i] - center) / spread)
mean_features = feature_sum / records.shape[0]
print("mean", [round(v, 4) for v in mean_features.numpy().tolist()])
