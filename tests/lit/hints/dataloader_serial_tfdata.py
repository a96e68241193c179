# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# tf.data maps without `num_parallel_calls` in a program that trains: the function runs on
# one example at a time on one core. Reported when the function decodes, reads or resizes
# (proved cost), at the aggressive level when it does nothing costly harp can see, and not
# at the default level when the pipeline only feeds validation.
import tensorflow as tf
import yolo_data as data  # a module the program does not hold: its functions are unknown


def parse(record, size):
    image = tf.image.decode_jpeg(record, channels=3)
    return tf.image.resize(image, (size, size)) / 255.0


def load(pattern, size=416):
    files = tf.data.Dataset.list_files(pattern)
    records = files.flat_map(tf.data.TFRecordDataset)
    return records.map(lambda r: parse(r, size))  # expected-hint HARP501


train = load("train-*.tfrecord")
train = train.shuffle(512)
train = train.batch(8)
train = train.map(lambda x: x * 2.0 - 1.0)  # expected-hint@aggressive HARP501
train = train.map(lambda x: tf.image.resize(x, (320, 320)), num_parallel_calls=4)
val = load("val-*.tfrecord").batch(8)
val = val.map(lambda x: tf.image.resize(x, (320, 320)))  # expected-hint@aggressive HARP501
other = data.pipeline().map(lambda x: tf.image.resize(x, (320, 320)))  # not known tf.data
model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
model.compile(loss="mse", optimizer="adam")
model.fit(train, epochs=10, validation_data=val)
