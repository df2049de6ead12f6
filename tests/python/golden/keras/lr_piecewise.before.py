import tensorflow as tf

schedule = tf.keras.optimizers.schedules.PiecewiseConstantDecay([1000, 2000], [0.1, 0.01, 0.001])
opt = tf.keras.optimizers.SGD(learning_rate=schedule)
