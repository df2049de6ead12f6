import tensorflow as tf


def make_model():
    return tf.keras.Sequential([tf.keras.layers.Dense(1)])
