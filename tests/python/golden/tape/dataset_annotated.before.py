import tensorflow as tf

ds: tf.data.Dataset = tf.data.Dataset.range(100)
first = list(ds.take(10 + 5))
