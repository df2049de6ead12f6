import tensorflow.compat.v1 as tf
import horovod.tensorflow as hvd
hvd.init()

cfg = tf.ConfigProto(allow_soft_placement=True)
cfg.gpu_options.allow_growth = True
cfg.gpu_options.visible_device_list = str(hvd.local_rank())
with tf.Session(config=cfg) as sess:
    pass
with tf.Session(config=cfg) as sess2:
    pass
