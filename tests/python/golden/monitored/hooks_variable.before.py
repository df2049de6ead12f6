import tensorflow.compat.v1 as tf

hooks = [tf.train.StopAtStepHook(last_step=20000), tf.train.NanTensorHook(loss)]
with tf.train.MonitoredTrainingSession(hooks=hooks, config=my_config) as mon_sess:
    while not mon_sess.should_stop():
        mon_sess.run(train_op)
