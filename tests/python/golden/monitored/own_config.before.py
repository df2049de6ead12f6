import tensorflow.compat.v1 as tf

session_config = tf.ConfigProto(log_device_placement=True)
with tf.train.MonitoredTrainingSession(config=session_config) as sess:
    sess.run(train_op)
with tf.train.MonitoredTrainingSession() as sess:
    sess.run(train_op)
