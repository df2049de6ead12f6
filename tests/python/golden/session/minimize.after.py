import tensorflow.compat.v1 as tf
import horovod.tensorflow as hvd
hvd.init()

optimizer = tf.train.AdamOptimizer(learning_rate=0.001 * hvd.size())
optimizer = hvd.DistributedOptimizer(optimizer)
train_op = optimizer.minimize(loss)
optimizer_1 = tf.train.MomentumOptimizer(0.01 * hvd.size(), 0.9)
optimizer_1 = hvd.DistributedOptimizer(optimizer_1)
step_op = optimizer_1.minimize(loss, global_step=gs)
