import tensorflow as tf

opt = tf.optimizers.RMSprop(0.001, rho=0.9)
