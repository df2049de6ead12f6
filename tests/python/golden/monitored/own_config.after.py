import tensorflow.compat.v1 as tf
import horovod.tensorflow as hvd
hvd.init()

session_config = tf.ConfigProto(log_device_placement=True)
session_config.gpu_options.allow_growth = True
session_config.gpu_options.visible_device_list = str(hvd.local_rank())
with tf.train.MonitoredTrainingSession(config=session_config, hooks=[hvd.BroadcastGlobalVariablesHook(0)]) as sess:
    sess.run(train_op)
with tf.train.MonitoredTrainingSession(hooks=[hvd.BroadcastGlobalVariablesHook(0)], config=session_config) as sess:
    sess.run(train_op)
