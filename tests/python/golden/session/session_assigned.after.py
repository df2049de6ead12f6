import tensorflow.compat.v1 as tf
import horovod.tensorflow as hvd
hvd.init()

config = tf.ConfigProto()
config.gpu_options.allow_growth = True
config.gpu_options.visible_device_list = str(hvd.local_rank())
sess = tf.Session(config=config)
sess.run(tf.global_variables_initializer())
sess.run(hvd.broadcast_global_variables(root_rank=0))
