import tensorflow as tf

schedule = tf.keras.optimizers.schedules.ExponentialDecay(
    initial_learning_rate=0.1 + 0.01,
    decay_steps=100000,
    decay_rate=0.96)
