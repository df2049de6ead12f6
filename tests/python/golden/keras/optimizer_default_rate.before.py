import tensorflow as tf

opt = tf.keras.optimizers.SGD()
opt2 = tf.keras.optimizers.Adam(beta_1=0.8)
