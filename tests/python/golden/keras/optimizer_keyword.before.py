import tensorflow as tf

opt = tf.keras.optimizers.Adam(learning_rate=base_lr, beta_1=0.9)  # tuned
