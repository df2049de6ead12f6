import tensorflow.compat.v1 as tf
import horovod.tensorflow as hvd
hvd.init()

opt = tf.train.AdagradOptimizer(0.01 * 2 * hvd.size())
opt = hvd.DistributedOptimizer(opt)
train_op = opt.minimize(loss)
if hvd.rank() == 0:
    print('built')
