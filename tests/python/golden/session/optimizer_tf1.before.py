import tensorflow.compat.v1 as tf

lr = tf.train.exponential_decay(0.1, gs, 1000, 0.96)
opt = tf.train.GradientDescentOptimizer(lr)
opt2 = tf.train.AdamOptimizer()
opt3 = tf.train.MomentumOptimizer(learning_rate=0.1, momentum=0.9)
