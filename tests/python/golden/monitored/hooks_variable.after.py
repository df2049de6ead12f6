import tensorflow.compat.v1 as tf
import horovod.tensorflow as hvd
hvd.init()

hooks = [tf.train.StopAtStepHook(last_step=20000 // hvd.size()), tf.train.NanTensorHook(loss)]
with tf.train.MonitoredTrainingSession(hooks=[*hooks, hvd.BroadcastGlobalVariablesHook(0)], config=my_config) as mon_sess:
    while not mon_sess.should_stop():
        mon_sess.run(train_op)
