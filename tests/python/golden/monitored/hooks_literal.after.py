import tensorflow.compat.v1 as tf
import horovod.tensorflow as hvd
hvd.init()

config = tf.ConfigProto()
config.gpu_options.allow_growth = True
config.gpu_options.visible_device_list = str(hvd.local_rank())
with tf.train.MonitoredTrainingSession(hooks=[tf.train.StopAtStepHook(1000 // hvd.size()), hvd.BroadcastGlobalVariablesHook(0)],
                                       checkpoint_dir=ckpt_dir if hvd.rank() == 0 else None, config=config) as sess:
    sess.run(train_op)
config_1 = tf.ConfigProto()
config_1.gpu_options.allow_growth = True
config_1.gpu_options.visible_device_list = str(hvd.local_rank())
with tf.train.MonitoredTrainingSession(hooks=[hvd.BroadcastGlobalVariablesHook(0)], config=config_1) as sess:
    sess.run(train_op)
