import tensorflow.compat.v1 as tf
import horovod.tensorflow as hvd
hvd.init()

lr = tf.train.exponential_decay(0.1 * hvd.size(), gs, 1000, 0.96)
opt = tf.train.GradientDescentOptimizer(lr)
opt = hvd.DistributedOptimizer(opt)
opt2 = tf.train.AdamOptimizer(learning_rate=0.001 * hvd.size())
opt2 = hvd.DistributedOptimizer(opt2)
opt3 = tf.train.MomentumOptimizer(learning_rate=0.1 * hvd.size(), momentum=0.9)
opt3 = hvd.DistributedOptimizer(opt3)
