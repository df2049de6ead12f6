import tensorflow as tf

lr = tf.keras.optimizers.schedules.ExponentialDecay(0.1, 1000, 0.9)
opt = tf.keras.optimizers.Adam(lr)
