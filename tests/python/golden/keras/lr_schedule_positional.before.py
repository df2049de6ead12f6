import tensorflow as tf

schedule = tf.keras.optimizers.schedules.CosineDecay(0.05, 1000)
