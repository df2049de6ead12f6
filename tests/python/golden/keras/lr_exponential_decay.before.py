import tensorflow as tf

step = tf.Variable(0)
lr1 = tf.compat.v1.train.exponential_decay(learning_rate=0.1, global_step=step, decay_steps=10, decay_rate=0.9)
lr2 = tf.compat.v1.train.exponential_decay(base_lr, step, 10, 0.9)
