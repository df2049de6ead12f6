# TF 1.x script: a session bound by assignment, a ConfigProto of its own, init.run().
import tensorflow as tf
import horovod.tensorflow as hvd
hvd.init()

config_proto = tf.ConfigProto(log_device_placement=False)
config_proto.gpu_options.allow_growth = True
config_proto.gpu_options.visible_device_list = str(hvd.local_rank())

a = tf.Variable(3.0)
loss = tf.square(a - 1.0)
opt = tf.train.AdamOptimizer(learning_rate=0.01 * hvd.size())
opt = hvd.DistributedOptimizer(opt)
train_op = opt.minimize(loss)
init = tf.global_variables_initializer()

sess = tf.Session(config=config_proto)
with sess.as_default():
    init.run()
    hvd.broadcast_global_variables(root_rank=0).run()
    for _ in range(100):
        sess.run(train_op)
saver = tf.train.Saver()
if hvd.rank() == 0:
    saver.save(sess, 'model')
