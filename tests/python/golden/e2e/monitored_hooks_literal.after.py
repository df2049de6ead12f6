"""Distributed-ready TF1 training with a hooks list literal and a named ConfigProto."""
import tensorflow as tf
import horovod.tensorflow as hvd
hvd.init()

session_conf = tf.ConfigProto(allow_soft_placement=True)
session_conf.gpu_options.allow_growth = True
session_conf.gpu_options.visible_device_list = str(hvd.local_rank())

global_step = tf.train.get_or_create_global_step()
x = tf.random_normal([64, 8])
loss = tf.reduce_mean(tf.layers.dense(x, 1))
optimizer = tf.train.MomentumOptimizer(0.01 * hvd.size(), momentum=0.9)
optimizer = hvd.DistributedOptimizer(optimizer)
train_op = optimizer.minimize(loss, global_step=global_step)

with tf.train.MonitoredTrainingSession(
        checkpoint_dir='./ckpt' if hvd.rank() == 0 else None,
        hooks=[tf.train.StopAtStepHook(last_step=5000 // hvd.size()),
               tf.train.LoggingTensorHook([loss], every_n_iter=10), hvd.BroadcastGlobalVariablesHook(0)],
        config=session_conf) as sess:
    while not sess.should_stop():
        sess.run(train_op)
