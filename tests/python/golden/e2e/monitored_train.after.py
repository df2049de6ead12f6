"""Train with tf.train.MonitoredTrainingSession (TF 1.x, single GPU)."""
import tensorflow.compat.v1 as tf
import horovod.tensorflow as hvd
hvd.init()

tf.disable_v2_behavior()

features = tf.random.normal([32, 10])
labels = tf.random.normal([32, 1])
dense = tf.layers.dense(features, 1)
loss = tf.losses.mean_squared_error(labels, dense)

global_step = tf.train.get_or_create_global_step()
opt = tf.train.AdamOptimizer(learning_rate=0.001 * hvd.size())
opt = hvd.DistributedOptimizer(opt)
train_op = opt.minimize(loss, global_step=global_step)

hooks = [tf.train.StopAtStepHook(last_step=10000 // hvd.size()),
         tf.train.LoggingTensorHook({'loss': loss}, every_n_iter=100)]

config = tf.ConfigProto()
config.gpu_options.allow_growth = True
config.gpu_options.visible_device_list = str(hvd.local_rank())
with tf.train.MonitoredTrainingSession(checkpoint_dir='/tmp/train_logs' if hvd.rank() == 0 else None,
                                       hooks=[*hooks, hvd.BroadcastGlobalVariablesHook(0)], config=config) as mon_sess:
    while not mon_sess.should_stop():
        mon_sess.run(train_op)
