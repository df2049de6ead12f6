"""Distributed-ready TF1 training with a hooks list literal and a named ConfigProto."""
import tensorflow as tf

session_conf = tf.ConfigProto(allow_soft_placement=True)

global_step = tf.train.get_or_create_global_step()
x = tf.random_normal([64, 8])
loss = tf.reduce_mean(tf.layers.dense(x, 1))
train_op = tf.train.MomentumOptimizer(0.01, momentum=0.9).minimize(loss, global_step=global_step)

with tf.train.MonitoredTrainingSession(
        checkpoint_dir='./ckpt',
        hooks=[tf.train.StopAtStepHook(last_step=5000),
               tf.train.LoggingTensorHook([loss], every_n_iter=10)],
        config=session_conf) as sess:
    while not sess.should_stop():
        sess.run(train_op)
