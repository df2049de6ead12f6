import tensorflow.compat.v1 as tf
import horovod.tensorflow as hvd
hvd.init()

config = 'the name is taken'
config_1 = tf.ConfigProto()
config_1.gpu_options.allow_growth = True
config_1.gpu_options.visible_device_list = str(hvd.local_rank())
with tf.Session(config=config_1) as sess:
    sess.run(tf.global_variables_initializer())
    sess.run(hvd.broadcast_global_variables(root_rank=0))
    sess.run(train_op)
