import tensorflow.compat.v1 as tf
import horovod.tensorflow as hvd
hvd.init()

config = tf.ConfigProto()
config.gpu_options.allow_growth = True
config.gpu_options.visible_device_list = str(hvd.local_rank())
with tf.train.MonitoredTrainingSession(hooks=[hvd.BroadcastGlobalVariablesHook(0)], config=config) as sess:
    sess.run(train_op)
