import tensorflow.compat.v1 as tf

with tf.train.MonitoredTrainingSession() as sess:
    sess.run(train_op)
