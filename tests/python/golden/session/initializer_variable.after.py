import tensorflow.compat.v1 as tf
import horovod.tensorflow as hvd
hvd.init()

init = tf.global_variables_initializer()
config = tf.ConfigProto()
config.gpu_options.allow_growth = True
config.gpu_options.visible_device_list = str(hvd.local_rank())
with tf.Session(config=config) as sess:
    sess.run(init)
    sess.run(hvd.broadcast_global_variables(root_rank=0))
    init.run()
    hvd.broadcast_global_variables(root_rank=0).run()
