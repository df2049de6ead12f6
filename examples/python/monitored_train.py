"""Train with tf.train.MonitoredTrainingSession (TF 1.x, single GPU)."""
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()

features = tf.random.normal([32, 10])
labels = tf.random.normal([32, 1])
dense = tf.layers.dense(features, 1)
loss = tf.losses.mean_squared_error(labels, dense)

global_step = tf.train.get_or_create_global_step()
opt = tf.train.AdamOptimizer(learning_rate=0.001)
train_op = opt.minimize(loss, global_step=global_step)

hooks = [tf.train.StopAtStepHook(last_step=10000),
         tf.train.LoggingTensorHook({'loss': loss}, every_n_iter=100)]

with tf.train.MonitoredTrainingSession(checkpoint_dir='/tmp/train_logs',
                                       hooks=hooks) as mon_sess:
    while not mon_sess.should_stop():
        mon_sess.run(train_op)
