import tensorflow.compat.v1 as tf

with tf.train.MonitoredTrainingSession(hooks=[tf.train.StopAtStepHook(1000)],
                                       checkpoint_dir=ckpt_dir) as sess:
    sess.run(train_op)
with tf.train.MonitoredTrainingSession(hooks=[]) as sess:
    sess.run(train_op)
