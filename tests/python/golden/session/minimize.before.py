import tensorflow.compat.v1 as tf

train_op = tf.train.AdamOptimizer(learning_rate=0.001).minimize(loss)
step_op = tf.train.MomentumOptimizer(0.01, 0.9).minimize(loss, global_step=gs)
